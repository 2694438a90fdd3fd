/**
 * The offline map, the local default: Natural Earth land and borders (shipped in the `world-atlas`
 * package), the largest GeoNames towns in view (the gazetteer), then the live map's overlay, rendered
 * here with no network. The atlas files are read and parsed on first use, not bundled as code, so they
 * cost nothing at module init; the deployed function carries them beside its bundle (ATLAS_FILES).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { LiveMap } from '../domain/live-map/live-map.ts';
import { type CountriesTopology, naturalEarthPaths } from '../domain/live-map/natural-earth.ts';
import { fromImagePixel, MAX_LATITUDE, toImagePixel, type Viewport } from '../domain/live-map/projection.ts';
import { liveMapSvg } from '../domain/live-map/svg-map.ts';
import { largestTownsWithin } from './gazetteer.ts';
import { svgToPng } from './svg-png.ts';

export const OFFLINE_ATTRIBUTION = 'Natural Earth · GeoNames';
/** 1:110 million outlines are plenty for a continent; closer in, 1:50 million. */
const FINE_ATLAS_FROM_ZOOM = 4;
const MAX_TOWNS = 12;

/** Package files read at run time: the coarse and the fine Natural Earth countries. */
export const ATLAS_FILES = ['world-atlas/countries-110m.json', 'world-atlas/countries-50m.json'] as const;

const atlases = new Map<string, Promise<CountriesTopology>>();

function naturalEarth(zoom: number): Promise<CountriesTopology> {
  const file = ATLAS_FILES[zoom < FINE_ATLAS_FROM_ZOOM ? 0 : 1];
  let atlas = atlases.get(file);
  if (!atlas) {
    atlas = readFile(createRequire(import.meta.url).resolve(file), 'utf8').then((text) => JSON.parse(text) as CountriesTopology);
    // A failed read must not stay cached for the container's life.
    atlas.catch(() => atlases.delete(file));
    atlases.set(file, atlas);
  }
  return atlas;
}

export async function renderOfflineMap(map: LiveMap): Promise<Uint8Array> {
  const viewport: Viewport = { centre: map.centre, zoom: map.zoom, width: map.width, height: map.height };
  const { land, borders } = naturalEarthPaths(viewport, await naturalEarth(map.zoom));
  const northWest = fromImagePixel(viewport, { x: 0, y: 0 });
  const southEast = fromImagePixel(viewport, { x: map.width, y: map.height });
  const box = {
    south: Math.max(southEast.lat, -MAX_LATITUDE),
    north: Math.min(northWest.lat, MAX_LATITUDE),
    west: Math.max(northWest.lng, -180),
    east: Math.min(southEast.lng, 180),
  };
  const towns = largestTownsWithin(box, MAX_TOWNS).map((town) => ({ name: town.name, at: toImagePixel(viewport, town) }));
  return svgToPng(liveMapSvg(map, { kind: 'drawn', land, borders, towns, attribution: OFFLINE_ATTRIBUTION }).svg);
}
