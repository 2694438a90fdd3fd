/**
 * The positions pipeline (docs/positions-pipeline.md): a batch of raw records → per vehicle,
 * whatever order the points arrive in, the position history, the live record, odometer and engine hours, trips
 * and fuel fills. The same code serves the Kinesis Lambda, `npm run admin -- ingest` and the local seed.
 */

import { config } from '../config.ts';
import { type Position, parsePosition } from '../domain/tracking/position.ts';
import { logger } from '../logger.ts';
import { putObject } from '../store/bucket.ts';
import { findTrackedVehicles, type TrackedVehicle } from '../store/tracks.ts';
import { PlaceNamer } from './place-namer.ts';
import { trackVehicle } from './track-vehicle.ts';

/** One record as it arrived: its id (a Kinesis sequence number, a file line) and its JSON text. */
export interface RawRecord {
  id: string;
  data: string;
}

export interface BatchOutcome {
  records: number;
  accepted: number;
  rejected: Array<{ id: string; reason: string }>;
  /** IMEIs of the known vehicles that had positions in the batch */
  imeis: string[];
  trips: number;
  fills: number;
  /** stored trips and fills re-detected with other figures, or removed, because late points changed them */
  changed: number;
  removed: number;
  /** fills re-detection no longer finds, kept because a slip is linked to them (logged) */
  fillsKeptForSlip: number;
  /** positions older than the lateness window behind their vehicle's newest point (in the dead-letter prefix) */
  tooLate: number;
  /** records of vehicles whose processing failed: to be retried (Kinesis partial batch failure) */
  failedIds: string[];
  /** DynamoDB items written (each a write request) */
  writeRequests: number;
}

export interface BatchOptions {
  /** names the batch's S3 objects; the same batch gets the same name, so a replay overwrites, never duplicates */
  batchName: string;
  receivedAt?: Date;
}

export async function processPositions(
  records: readonly RawRecord[],
  { batchName, receivedAt = new Date() }: BatchOptions,
): Promise<BatchOutcome> {
  const rejected: BatchOutcome['rejected'] = [];
  const byImei = new Map<string, Array<{ id: string; position: Position }>>();
  for (const record of records) {
    const parsed = parsePosition(record.data);
    if (!parsed.ok) rejected.push({ id: record.id, reason: parsed.reason });
    else byImei.set(parsed.position.imei, [...(byImei.get(parsed.position.imei) ?? []), { id: record.id, position: parsed.position }]);
  }

  const tracked = await findTrackedVehicles([...byImei.keys()]);
  let tooLate = 0;
  for (const [imei, entries] of byImei) {
    const vehicle = tracked.get(imei);
    const lateness = vehicle
      ? tooLateFilter(
          vehicle,
          entries.map((entry) => entry.position),
        )
      : undefined;
    const kept = entries.filter((entry) => {
      const reason = lateness === undefined ? `unknown imei ${imei}` : lateness(entry.position) ? 'too late' : undefined;
      if (reason) rejected.push({ id: entry.id, reason });
      if (reason === 'too late') tooLate++;
      return reason === undefined;
    });
    if (kept.length > 0) byImei.set(imei, kept);
    else byImei.delete(imei);
  }

  await archive(records, rejected, batchName, receivedAt);

  const outcome: BatchOutcome = {
    records: records.length,
    accepted: records.length - rejected.length,
    rejected,
    imeis: [...byImei.keys()],
    trips: 0,
    fills: 0,
    changed: 0,
    removed: 0,
    fillsKeptForSlip: 0,
    tooLate,
    failedIds: [],
    writeRequests: 0,
  };
  const namer = new PlaceNamer();
  await Promise.all(
    [...byImei].map(async ([imei, entries]) => {
      try {
        const found = await trackVehicle(
          tracked.get(imei) as TrackedVehicle,
          entries.map((entry) => entry.position),
          { receivedAt, namer },
        );
        outcome.trips += found.trips;
        outcome.fills += found.fills;
        outcome.changed += found.changed;
        outcome.removed += found.removed;
        outcome.fillsKeptForSlip += found.keptForSlip;
        outcome.writeRequests += found.writeRequests;
      } catch (error) {
        logger.error('vehicle batch failed; its records will be retried', { imei, error: error as Error });
        outcome.failedIds.push(...entries.map((entry) => entry.id));
      }
    }),
  );
  if (rejected.length > 0)
    logger.warn('positions rejected', { batchName, rejected: rejected.length, tooLate, firstReason: rejected[0]?.reason });
  return outcome;
}

/**
 * A point is too late when it is older than the lateness window behind its vehicle's newest point (stored or in
 * this batch): the window bounds how much history a re-detection walks through.
 */
function tooLateFilter({ live }: TrackedVehicle, positions: readonly Position[]): (position: Position) => boolean {
  const newest = [live?.gpsDatetime, ...positions.map((position) => position.gps_datetime)]
    .filter((at) => at !== undefined)
    .sort()
    .at(-1) as string;
  const oldestAccepted = Date.parse(newest) - config.lateWindowMs();
  return (position) => Date.parse(position.gps_datetime) < oldestAccepted;
}

/** The raw batch goes to the archive; rejected records to the dead-letter prefix with their reasons. */
async function archive(
  records: readonly RawRecord[],
  rejected: BatchOutcome['rejected'],
  batchName: string,
  receivedAt: Date,
): Promise<void> {
  const day = receivedAt.toISOString().slice(0, 10).replaceAll('-', '/');
  const writes = [
    putObject(`positions/raw/${day}/${batchName}.ndjson`, ndjson(records.map((record) => record.data)), 'application/x-ndjson'),
  ];
  if (rejected.length > 0) {
    const data = new Map(records.map((record) => [record.id, record.data]));
    const lines = rejected.map(({ id, reason }) => JSON.stringify({ id, reason, data: data.get(id) }));
    writes.push(putObject(`positions/dead-letter/${day}/${batchName}.ndjson`, ndjson(lines), 'application/x-ndjson'));
  }
  await Promise.all(writes);
}

const ndjson = (lines: string[]): string => `${lines.join('\n')}\n`;
