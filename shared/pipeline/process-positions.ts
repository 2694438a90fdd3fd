/**
 * The positions pipeline (docs/positions-pipeline.md): a batch of raw records → per vehicle,
 * whatever order the points arrive in, the position history, the live record, odometer and engine hours, trips
 * and fuel fills. The same code serves the Kinesis Lambda, `npm run admin -- ingest` and the local seed.
 */

import { config } from '../config.ts';
import { arrivalFault, type Fault } from '../domain/tracking/faults.ts';
import { type Position, parsePosition } from '../domain/tracking/position.ts';
import { DEFAULT_DETECTION, detectionSettings } from '../domain/tracking/settings.ts';
import { logger } from '../logger.ts';
import { putObject } from '../store/bucket.ts';
import { findTrackedVehicles, type TrackedVehicle } from '../store/tracks.ts';
import { PlaceNamer } from './place-namer.ts';
import { trackVehicle } from './track-vehicle.ts';

/** One record as it arrived: its id (a Kinesis sequence number, a file line) and its JSON text. */
export interface RawRecord {
  id: string;
  data: string;
  /** when the stream received it (Kinesis approximateArrivalTimestamp, ms) */
  arrivedAt?: number;
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
  /** positions older than the lateness window before their arrival (in the dead-letter prefix) */
  tooLate: number;
  /** points set aside (in the future, too late) and points or readings detection ignored, per fault class */
  faults: Partial<Record<Fault, number>>;
  /** records of vehicles whose processing failed: to be retried (Kinesis partial batch failure) */
  failedIds: string[];
  /** DynamoDB items written (each a write request) */
  writeRequests: number;
}

export interface BatchOptions {
  /** names the batch's S3 objects; the same batch gets the same name, so a replay overwrites, never duplicates */
  batchName: string;
  /**
   * When the batch was received: the arrival of its records that carry none of their own. Without it the batch is
   * a replay (a file, the simulator): it arrives when its newest point not in the future was made.
   */
  receivedAt?: Date;
}

export async function processPositions(
  records: readonly RawRecord[],
  { batchName, receivedAt: given }: BatchOptions,
): Promise<BatchOutcome> {
  const rejected: BatchOutcome['rejected'] = [];
  const parsed: Array<{ id: string; position: Position; arrivedAt?: number }> = [];
  for (const record of records) {
    const result = parsePosition(record.data);
    if (!result.ok) rejected.push({ id: record.id, reason: result.reason });
    else parsed.push({ id: record.id, position: result.position, arrivedAt: record.arrivedAt });
  }
  const receivedAt = given ?? newestArrival(parsed) ?? replayArrival(parsed.map((entry) => entry.position));

  const tracked = await findTrackedVehicles([...new Set(parsed.map((entry) => entry.position.imei))]);
  const faults: BatchOutcome['faults'] = {};
  const byImei = new Map<string, Array<{ id: string; position: Position }>>();
  const futureTolerancesS = new Map(
    [...tracked].map(([imei, { vehicle }]) => [imei, detectionSettings(vehicle.detection).futureToleranceS]),
  );
  for (const { id, position, arrivedAt } of parsed) {
    const vehicle = tracked.get(position.imei);
    const arrival = position.received_at ? Date.parse(position.received_at) : (arrivedAt ?? receivedAt.getTime());
    const fault = vehicle
      ? arrivalFault(position.gps_datetime, arrival, futureTolerancesS.get(position.imei) as number, config.lateWindowMs())
      : null;
    const reason = vehicle ? fault : `unknown imei ${position.imei}`;
    if (fault) faults[fault] = (faults[fault] ?? 0) + 1;
    if (reason) rejected.push({ id, reason });
    else if (byImei.has(position.imei)) byImei.get(position.imei)?.push({ id, position });
    else byImei.set(position.imei, [{ id, position }]);
  }
  const tooLate = faults['too late'] ?? 0;

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
    faults,
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
          { receivedAt: given ?? new Date(), namer },
        );
        outcome.trips += found.trips;
        outcome.fills += found.fills;
        outcome.changed += found.changed;
        outcome.removed += found.removed;
        outcome.fillsKeptForSlip += found.keptForSlip;
        outcome.writeRequests += found.writeRequests;
        for (const [fault, count] of Object.entries(found.faults)) faults[fault as Fault] = (faults[fault as Fault] ?? 0) + count;
      } catch (error) {
        logger.error('vehicle batch failed; its records will be retried', { imei, error: error as Error });
        outcome.failedIds.push(...entries.map((entry) => entry.id));
      }
    }),
  );
  if (rejected.length > 0)
    logger.warn('positions rejected', { batchName, rejected: rejected.length, faults, firstReason: rejected[0]?.reason });
  return outcome;
}

/** Without a receive time of its own, a batch was received when its newest record arrived (when records say so). */
function newestArrival(parsed: ReadonlyArray<{ position: Position; arrivedAt?: number }>): Date | undefined {
  const arrivals = parsed.flatMap(({ position, arrivedAt }) =>
    position.received_at ? [Date.parse(position.received_at)] : (arrivedAt ?? []),
  );
  return arrivals.length > 0 ? new Date(Math.max(...arrivals)) : undefined;
}

/**
 * A replayed batch's arrival (a file, the simulator: no record says when it arrived): its newest point that is not
 * in the future of now, and never later than now. A glitch that stays in the past cannot be told from a real point
 * this way; live streams always carry their arrival.
 */
function replayArrival(positions: readonly Position[]): Date {
  const now = Date.now();
  const plausible = positions
    .map((position) => Date.parse(position.gps_datetime))
    .filter((at) => at <= now + DEFAULT_DETECTION.futureToleranceS * 1000);
  return new Date(Math.min(now, Math.max(0, ...plausible) || now));
}

/** The folder of the day a batch arrived, under positions/raw/ and positions/dead-letter/. */
export const archiveDay = (at: Date | number): string => new Date(at).toISOString().slice(0, 10).replaceAll('-', '/');

/** The raw batch goes to the archive; rejected records to the dead-letter prefix with their reasons. */
async function archive(
  records: readonly RawRecord[],
  rejected: BatchOutcome['rejected'],
  batchName: string,
  receivedAt: Date,
): Promise<void> {
  const day = archiveDay(receivedAt);
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
