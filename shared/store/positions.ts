/**
 * Position history and detection checkpoints (docs/positions-pipeline.md, "Position history"): chunks of one
 * vehicle's points per batch and hour, and the detector's state at the start of each hour with data.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { TrackState } from '../domain/tracking/detector.ts';
import { decodeChunk, hourStart, type PositionChunk } from '../domain/tracking/history.ts';
import type { Position } from '../domain/tracking/position.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { type Item, queryRange } from './requests.ts';
import { tableDefinition } from './table-definition.ts';

export interface Checkpoint {
  /** `yyyy-mm-ddThh`: the state is the detector's before the first point of this hour */
  hour: string;
  state: TrackState;
}

/** Seconds since the epoch at which DynamoDB's TTL removes history about `at`. */
const expiresAfter = (at: string): number => Math.floor(Date.parse(at) / 1000) + config.positionRetentionDays() * 86_400;

export const chunkItem = (vehicleUid: number, chunk: PositionChunk): Item => ({
  ...keys.positionChunk(vehicleUid, chunk.firstAt, chunk.contentHash),
  hour: chunk.hour,
  points: chunk.encoded,
  [tableDefinition.ttlAttribute]: expiresAfter(chunk.lastAt),
});

export const checkpointItem = (vehicleUid: number, checkpoint: Checkpoint): Item => ({
  ...keys.checkpoint(vehicleUid, checkpoint.hour),
  state: checkpoint.state,
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
  return item ? { hour: String(item.sk), state: item.state as TrackState } : undefined;
}

/**
 * A vehicle's stored points from `from` up to `to` (UTC instants), duplicates included (history.byTime orders
 * them and removes them). One strongly consistent Query: the pipeline reads what it just wrote.
 */
export async function readPositions(vehicleUid: number, imei: string, from: string, to = '9999'): Promise<Position[]> {
  const items = await queryRange(keys.positionChunkRange(vehicleUid, from, to), { ConsistentRead: true });
  return items
    .flatMap((item) => decodeChunk(imei, String(item.hour), String(item.points)))
    .filter((position) => position.gps_datetime >= from && position.gps_datetime <= to);
}

/**
 * getPositions: the points between two UTC instants (at most a week), one Query per UTC day and the track item's
 * tail, all in parallel, so a week of 30 s reporting is one round trip (a day of chunks stays within one 1 MB page). The points carry
 * no imei: the caller reads them before it knows the vehicle is the user's.
 */
export async function listPositions(vehicleUid: number, from: string, to: string): Promise<Position[]> {
  const days: Array<[string, string]> = [];
  for (let start = from; start <= to; ) {
    const nextDay = new Date(Date.parse(`${start.slice(0, 10)}T00:00:00.000Z`) + 86_400_000).toISOString();
    const end = nextDay > to ? to : new Date(Date.parse(nextDay) - 1).toISOString();
    days.push([start, end]);
    start = nextDay;
  }
  const [tail, ...found] = await Promise.all([
    findTail(vehicleUid),
    ...days.map(([start, end]) => readPositions(vehicleUid, '', start, end)),
  ]);
  return [...found.flat(), ...(tail ?? []).filter((position) => position.gps_datetime >= from && position.gps_datetime <= to)];
}

/** The newest points, still on the track item (not yet in a chunk). */
async function findTail(vehicleUid: number): Promise<Position[]> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.trackState(vehicleUid), ProjectionExpression: 'tail, tail_hour' }),
  );
  return Item?.tail === undefined ? [] : decodeChunk('', String(Item.tail_hour), String(Item.tail));
}
