/**
 * Position history and detection checkpoints (docs/positions-pipeline.md, "Position history"): chunks of one
 * vehicle's points per batch and hour, and the detector's state at the start of each hour with data.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { StoredZoneState } from '../domain/events/zone-events.ts';
import type { TrackState } from '../domain/tracking/detector.ts';
import { byTime, decodeChunk, hourStart, type PositionChunk } from '../domain/tracking/history.ts';
import type { Position } from '../domain/tracking/position.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { type Item, queryRange, queryWhile } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export interface Checkpoint {
  /** `yyyy-mm-ddThh`: the state is the detector's before the first point of this hour */
  hour: string;
  state: TrackState;
  /**
   * the zone events' walk state then (absent on checkpoints written before zone events; merged over the users on
   * those written before the per-user walk)
   */
  zones?: StoredZoneState;
}

/** Seconds since the epoch at which DynamoDB's TTL removes history about `at`. */
const expiresAfter = (at: string): number => Math.floor(Date.parse(at) / 1000) + config.positionRetentionDays() * 86_400;

export const chunkItem = (vehicleUid: number, chunk: PositionChunk): Item => ({
  ...keys.positionChunk(vehicleUid, chunk.firstAt, chunk.contentHash),
  hour: chunk.hour,
  points: chunk.encoded,
  [tableDefinition.ttlAttribute]: expiresAfter(chunk.lastAt),
});

/** A chunk item's points (with `imei`, or none when the caller does not need it). */
const pointsOfChunk = (item: Item, imei = ''): Position[] => decodeChunk(imei, String(item.hour), String(item.points));

export const checkpointItem = (vehicleUid: number, checkpoint: Checkpoint): Item => ({
  ...keys.checkpoint(vehicleUid, checkpoint.hour),
  state: checkpoint.state,
  ...(checkpoint.zones ? { zone_state: JSON.stringify(checkpoint.zones) } : {}),
  [tableDefinition.ttlAttribute]: expiresAfter(hourStart(checkpoint.hour)),
});

/**
 * Plain Puts, in parallel: chunks and checkpoints are named by what they hold, so writing one again changes
 * nothing. Answers the number of write requests.
 */
export async function putAll(items: readonly Item[]): Promise<number> {
  await Promise.all(items.map((item) => dynamo().send(new PutCommand({ TableName: tableName(), Item: item }))));
  return items.length;
}

/** The latest checkpoint at or before an hour: one Query. */
export async function findCheckpoint(vehicleUid: number, hour: string): Promise<Checkpoint | undefined> {
  const [item] = await queryRange(keys.checkpointRange(vehicleUid, hour), { ScanIndexForward: false, Limit: 1 });
  if (!item) return undefined;
  const zones = typeof item.zone_state === 'string' ? (JSON.parse(item.zone_state) as StoredZoneState) : undefined;
  return { hour: String(item.sk), state: item.state as TrackState, ...(zones ? { zones } : {}) };
}

/** A history chunk as stored: its sort key (its first point's time and content hash) and its encoded points. */
export interface StoredChunk {
  sk: string;
  hour: string;
  points: string;
}

export const storedChunkOf = (vehicleUid: number, chunk: PositionChunk): StoredChunk => ({
  sk: keys.positionChunk(vehicleUid, chunk.firstAt, chunk.contentHash).sk,
  hour: chunk.hour,
  points: chunk.encoded,
});

/**
 * A vehicle's chunks that may hold points from `from` on, in key order. One strongly consistent Query: the pipeline
 * reads what it just wrote.
 */
export async function readChunks(vehicleUid: number, from: string, to = '9999'): Promise<StoredChunk[]> {
  const items = await queryRange(keys.positionChunkRange(vehicleUid, from, to), { ConsistentRead: true });
  return items.map((item) => ({ sk: String(item.sk), hour: String(item.hour), points: String(item.points) }));
}

/**
 * The points of chunks read by readChunks (in key order) from `from` up to `to` (UTC instants), duplicates included
 * (history.byTime orders them and removes them).
 */
export function pointsOfChunks(chunks: readonly StoredChunk[], imei: string, from: string, to = '9999'): Position[] {
  return chunks
    .filter((chunk) => chunk.sk >= keys.positionChunkLowest(from))
    .flatMap((chunk) => decodeChunk(imei, chunk.hour, chunk.points))
    .filter((position) => position.gps_datetime >= from && position.gps_datetime <= to);
}

/** A vehicle's stored points from `from` up to `to` (UTC instants), duplicates included. */
export async function readPositions(vehicleUid: number, imei: string, from: string, to = '9999'): Promise<Position[]> {
  return pointsOfChunks(await readChunks(vehicleUid, from, to), imei, from, to);
}

/** What getPositions read of its range. */
export interface PositionsRead {
  /** the range's first points, one per instant, oldest first: at least `wanted` of them when the range holds that many */
  positions: Position[];
  /** set when a day's history outgrew a Query page: no point from this instant on was answered (it is the first left out) */
  unreadFrom?: string;
}

/**
 * getPositions: the first points between two UTC instants (at most a week). One Query page per UTC day and the track
 * item's tail, all in parallel: one round trip. A day denser than one page (1 MB, about a day of 1 s reporting) is
 * read up to there, and the answer ends before its first unread chunk. Chunks are decoded in order only until
 * `wanted` points are certain, so a dense week holds about one answer's points, not the week's. The points carry
 * no imei: the caller reads them before it knows the vehicle is the user's.
 */
export async function listPositions(vehicleUid: number, from: string, to: string, wanted: number): Promise<PositionsRead> {
  const days: Array<[string, string]> = [];
  for (let start = from; start <= to; ) {
    const nextDay = new Date(Date.parse(`${start.slice(0, 10)}T00:00:00.000Z`) + 86_400_000).toISOString();
    const end = nextDay > to ? to : new Date(Date.parse(nextDay) - 1).toISOString();
    days.push([start, end]);
    start = nextDay;
  }
  const [tail, ...pages] = await Promise.all([
    findTail(vehicleUid),
    // Another page only when the first holds nothing past the day's first second, so the answer always moves on.
    ...days.map(([start, end]) =>
      queryWhile(
        keys.positionChunkRange(vehicleUid, start, end),
        (items) => keys.positionChunkFirstAt(items.at(-1) ?? {}).slice(0, 19) <= start.slice(0, 19),
        {
          ConsistentRead: true,
        },
      ),
    ),
  ]);
  const unreadFrom = pages
    .filter((page) => page.more)
    .map((page) => keys.positionChunkFirstAt(page.items.at(-1) ?? {}))
    .sort()[0];
  const chunks: PositionSource[] = pages.flatMap((page) =>
    page.items.map((item) => ({ firstAt: keys.positionChunkFirstAt(item), points: () => pointsOfChunk(item) })),
  );
  const [oldestInTail] = byTime(tail);
  if (oldestInTail) chunks.push({ firstAt: oldestInTail.gps_datetime, points: () => tail });
  const end = unreadFrom ?? '~';
  const inRange = (position: Position) => position.gps_datetime >= from && position.gps_datetime <= to && position.gps_datetime < end;
  return { positions: firstPoints(chunks, inRange, wanted), ...(unreadFrom ? { unreadFrom } : {}) };
}

/** Stored points that start at `firstAt`, decoded only when asked. */
interface PositionSource {
  firstAt: string;
  points: () => Position[];
}

/**
 * The first `wanted` points of the sources that `keep` accepts, one per instant, oldest first. Sources are taken in
 * the order of their first point, so once `wanted` points come before the next source's first, no later source can
 * add one of them.
 */
function firstPoints(sources: PositionSource[], keep: (position: Position) => boolean, wanted: number): Position[] {
  let found: Position[] = [];
  for (const source of sources.sort((a, b) => (a.firstAt < b.firstAt ? -1 : a.firstAt > b.firstAt ? 1 : 0))) {
    if (found.length >= wanted) {
      found = byTime(found).slice(0, wanted);
      if ((found.at(-1) as Position).gps_datetime < source.firstAt) break;
    }
    found.push(...source.points().filter(keep));
  }
  return byTime(found).slice(0, wanted);
}

/** The newest points, still on the track item (not yet in a chunk). */
async function findTail(vehicleUid: number): Promise<Position[]> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.trackState(vehicleUid), ProjectionExpression: 'tail, tail_hour' }),
  );
  return Item?.tail === undefined ? [] : decodeChunk('', String(Item.tail_hour), String(Item.tail));
}
