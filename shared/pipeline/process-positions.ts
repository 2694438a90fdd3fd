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
import { isWorthRetrying } from '../store/aws-errors.ts';
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
    if (vehicle && position.dropped_readings) {
      faults['dropped reading'] = (faults['dropped reading'] ?? 0) + position.dropped_readings.length;
    }
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

  await archiveRaw(records, batchName, receivedAt);

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
  /** `again`: a part of records tracked apart, after an earlier part changed or failed: the vehicle is read anew */
  const track = async (imei: string, entries: readonly VehicleEntry[], again: boolean) => {
    const vehicle = again ? (await findTrackedVehicles([imei])).get(imei) : tracked.get(imei);
    const found = await trackVehicle(
      vehicle as TrackedVehicle,
      entries.map((entry) => entry.position),
      {
        receivedAt: given ?? new Date(),
        namer,
      },
    );
    outcome.trips += found.trips;
    outcome.fills += found.fills;
    outcome.changed += found.changed;
    outcome.removed += found.removed;
    outcome.fillsKeptForSlip += found.keptForSlip;
    outcome.writeRequests += found.writeRequests;
    for (const [fault, count] of Object.entries(found.faults)) faults[fault as Fault] = (faults[fault as Fault] ?? 0) + count;
    const sameSecond = new Set(found.sameSecond);
    for (const entry of entries) if (sameSecond.has(entry.position)) rejected.push({ id: entry.id, reason: 'same second' });
  };
  await Promise.all(
    [...byImei].map(async ([imei, entries]) => {
      const { refused, failed } = await trackApart(entries, (part, again) => track(imei, part, again));
      for (const { entry, reason } of refused) {
        logger.error('position refused by storage; dead-lettered, the vehicle carries on', { imei, id: entry.id, reason });
        rejected.push({ id: entry.id, reason });
      }
      if (failed.length > 0) outcome.failedIds.push(...failed.map((entry) => entry.id));
    }),
  );
  outcome.accepted = records.length - rejected.length;
  await archiveRejected(records, rejected, batchName, receivedAt);
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

type VehicleEntry = { id: string; position: Position };

/**
 * One vehicle's records, tracked together; when storage refuses them for good (a failure that would repeat on
 * retry), halves are tracked apart until the records it refuses are found: those are dead-lettered with the
 * refusal, the others stored. Only a transient failure leaves records to retry.
 */
async function trackApart(
  entries: readonly VehicleEntry[],
  track: (entries: readonly VehicleEntry[], again: boolean) => Promise<void>,
  again = false,
): Promise<{ refused: Array<{ entry: VehicleEntry; reason: string }>; failed: VehicleEntry[] }> {
  try {
    await track(entries, again);
    return { refused: [], failed: [] };
  } catch (error) {
    if (isWorthRetrying(error)) {
      logger.error('vehicle batch failed; its records will be retried', { imei: entries[0]?.position.imei, error: error as Error });
      return { refused: [], failed: [...entries] };
    }
    if (entries.length === 1)
      return { refused: [{ entry: entries[0] as VehicleEntry, reason: `refused by storage: ${reasonOf(error)}` }], failed: [] };
    const byTimeEntries = [...entries].sort((a, b) => a.position.gps_datetime.localeCompare(b.position.gps_datetime));
    const half = Math.ceil(byTimeEntries.length / 2);
    const first = await trackApart(byTimeEntries.slice(0, half), track, true);
    const second = await trackApart(byTimeEntries.slice(half), track, true);
    return { refused: [...first.refused, ...second.refused], failed: [...first.failed, ...second.failed] };
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);

/** The raw batch goes to the archive, before anything is processed. */
async function archiveRaw(records: readonly RawRecord[], batchName: string, receivedAt: Date): Promise<void> {
  const day = archiveDay(receivedAt);
  await putObject(`positions/raw/${day}/${batchName}.ndjson`, ndjson(records.map((record) => record.data)), 'application/x-ndjson');
}

/** Rejected records to the dead-letter prefix with their reasons. */
async function archiveRejected(
  records: readonly RawRecord[],
  rejected: BatchOutcome['rejected'],
  batchName: string,
  receivedAt: Date,
): Promise<void> {
  if (rejected.length === 0) return;
  const data = new Map(records.map((record) => [record.id, record.data]));
  const lines = rejected.map(({ id, reason }) => JSON.stringify({ id, reason, data: data.get(id) }));
  await putObject(`positions/dead-letter/${archiveDay(receivedAt)}/${batchName}.ndjson`, ndjson(lines), 'application/x-ndjson');
}

const ndjson = (lines: string[]): string => `${lines.join('\n')}\n`;
