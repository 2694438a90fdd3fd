/**
 * Position history in a compact form: an hour's points as one JSON array of arrays, each point's time as
 * milliseconds into the hour and its fields in a fixed order with trailing nulls left out (about 60 bytes a point
 * against about 400 as a DynamoDB map).
 */
import { createHash } from 'node:crypto';
import { secondOf } from './faults.ts';
import type { Position } from './position.ts';

const FIELDS = [
  'latitude',
  'longitude',
  'speed',
  'heading',
  'ignition',
  'odometer_km',
  'engine_hours',
  'fuel_raw',
  'supp_volt',
  'int_batt_volt',
  'int_temp',
  'ext_temp',
  'driver_tag_id',
  'device_type',
  'config',
  // appended: older chunks simply lack them (null)
  'valid',
  'satellites',
  'dropped_readings',
] as const satisfies ReadonlyArray<keyof Position>;

/** `yyyy-mm-ddThh`: the hour a point belongs to, the unit of chunks and checkpoints. */
export const hourOf = (at: string): string => at.slice(0, 13);
export const hourStart = (hour: string): string => `${hour}:00:00.000Z`;

export interface PositionChunk {
  hour: string;
  firstAt: string;
  lastAt: string;
  /** names the chunk by its content: the same points give the same chunk */
  contentHash: string;
  encoded: string;
  count: number;
}

/** Keeps a chunk far below DynamoDB's 400 KB item limit (a 1,000-record batch of one vehicle encodes to about 60 KB). */
const MAX_CHUNK_CHARS = 256_000;

/** One chunk per hour the points fall in (more if an hour's points outgrow MAX_CHUNK_CHARS); the points of one vehicle, in any order. */
export function chunksOf(positions: readonly Position[]): PositionChunk[] {
  const groups: Array<[string, Position[]]> = [];
  let size = 0;
  for (const position of byTime(positions)) {
    const hour = hourOf(position.gps_datetime);
    const bytes = JSON.stringify(position).length;
    const last = groups.at(-1);
    if (last && last[0] === hour && size + bytes <= MAX_CHUNK_CHARS) {
      last[1].push(position);
      size += bytes;
    } else {
      groups.push([hour, [position]]);
      size = bytes;
    }
  }
  return groups.map(([hour, points]) => {
    const encoded = encodePoints(hour, points);
    return {
      hour,
      firstAt: (points[0] as Position).gps_datetime,
      lastAt: (points.at(-1) as Position).gps_datetime,
      contentHash: createHash('sha256').update(encoded).digest('base64url').slice(0, 12),
      encoded,
      count: points.length,
    };
  });
}

/** Points, oldest first, as milliseconds since the start of `hour` and their fields (later hours simply count on). */
export function encodePoints(hour: string, points: readonly Position[]): string {
  const start = Date.parse(hourStart(hour));
  return JSON.stringify(
    points.map((point) => {
      const row: unknown[] = [Date.parse(point.gps_datetime) - start, ...FIELDS.map((field) => point[field])];
      while (row.at(-1) === null) row.pop();
      return row;
    }),
  );
}

/**
 * A decoded point before its values: every field there from the start (how a point arrived is not history: the
 * pipeline has measured it by then), so each point is a copy of one shape instead of an object grown field by field
 * (getPositions decodes a day of them per call: half the time).
 */
const DECODED_POINT: Readonly<Record<string, unknown>> = {
  imei: '',
  gps_datetime: '',
  protocol: null,
  received_at: null,
  ...Object.fromEntries(FIELDS.map((field) => [field, null])),
};

/** The points of a stored chunk, for the vehicle of the given IMEI. */
export function decodeChunk(imei: string, hour: string, encoded: string): Position[] {
  const instantOf = instantsOfHour(hour);
  return (JSON.parse(encoded) as unknown[][]).map((row) => {
    const position = { ...DECODED_POINT };
    position.imei = imei;
    position.gps_datetime = instantOf(Number(row[0]));
    for (let n = 0; n < FIELDS.length; n++) position[FIELDS[n] as string] = row[n + 1] ?? null;
    return position as unknown as Position;
  });
}

const HOUR_MS = 3_600_000;
const digits = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * The instant `offset` ms into a chunk's hour, as toISOString writes it. Within the hour it is the hour's own text and
 * the offset's minutes, seconds and milliseconds (a Date made and formatted per point was a third of decoding); later
 * hours (a chunk counts on past its own) and an hour text that is not toISOString's go through a Date.
 */
function instantsOfHour(hour: string): (offset: number) => string {
  const start = Date.parse(hourStart(hour));
  const throughDate = (offset: number) => new Date(start + offset).toISOString();
  if (Number.isNaN(start) || throughDate(0) !== hourStart(hour)) return throughDate;
  return (offset) =>
    Number.isInteger(offset) && offset >= 0 && offset < HOUR_MS
      ? `${hour}:${digits(Math.floor(offset / 60_000), 2)}:${digits(Math.floor(offset / 1000) % 60, 2)}.${digits(offset % 1000, 3)}Z`
      : throughDate(offset);
}

/**
 * Oldest first, one point per second: a point delivered twice (replays, bisected batches) counts once, the first
 * stored wins, and so does the first of several fixes of one second.
 */
export function byTime(positions: readonly Position[]): Position[] {
  // Points read back from history already are in order, one a second (getPositions reads a day of them a call):
  // one pass tells, and spares the sort and the set.
  if (isOnePerSecondInOrder(positions)) return [...positions];
  const seen = new Set<string>();
  const sorted = [...positions].sort((a, b) => (a.gps_datetime < b.gps_datetime ? -1 : a.gps_datetime > b.gps_datetime ? 1 : 0));
  return sorted.filter((position) => !seen.has(secondOf(position.gps_datetime)) && seen.add(secondOf(position.gps_datetime)));
}

function isOnePerSecondInOrder(positions: readonly Position[]): boolean {
  let previous = '';
  for (const position of positions) {
    const second = secondOf(position.gps_datetime);
    if (second <= previous) return false;
    previous = second;
  }
  return true;
}
