/**
 * The ingest benchmark (npm run bench -- ingest): a simulated fleet through processPositions on DynamoDB Local
 * in two batch shapes, each in order and with 10 % of the positions 1 to 6 hours late. Every DynamoDB request
 * asks for ReturnConsumedCapacity, so the write capacity units per position are DynamoDB's own count.
 */

import { vehicleDetails } from '../../shared/domain/vehicle.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { createUser } from '../../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../../shared/store/vehicles.ts';
import { fleetDay, interleave, prng, type SimulatedRecord } from '../../simulator/index.ts';
import { measureCapacity, usage } from './capacity.ts';
import type { BenchSize, Row } from './report.ts';

const VEHICLES = 10;
/** 03:00 to 09:00 UTC of fleetDay: each vehicle's fill and its first drives */
const FROM_HOUR = 3;
const HOURS = 6;
const REPORTING_S = 30;
const LATE_SHARE = 0.1;

export const PRODUCTION_WINDOW_S = REPORTING_S;

const shapes = [
  /** the stack's batching window with 30 s reporting: about one position per vehicle per batch */
  { shape: 'production (≈1 position per vehicle per batch)', windowS: PRODUCTION_WINDOW_S },
  { shape: '10 positions per vehicle per batch', windowS: 10 * REPORTING_S },
];

/** Batches by arrival: every record that arrives within one window is one batch; late records arrive 1 to 6 h after their time. */
function batchesOf(
  records: readonly SimulatedRecord[],
  windowS: number,
  lateShare: number,
): Array<{ records: SimulatedRecord[]; receivedAt: Date }> {
  const random = prng(20261123);
  const arriving = records.map((record) => {
    const delayS = random() < lateShare ? 3600 + random() * 5 * 3600 : 0;
    return { record, arrivesAt: Date.parse(record.gps_datetime) / 1000 + delayS };
  });
  const byWindow = new Map<number, SimulatedRecord[]>();
  for (const { record, arrivesAt } of arriving.sort((a, b) => a.arrivesAt - b.arrivesAt)) {
    const window = Math.floor(arrivesAt / windowS);
    byWindow.set(window, [...(byWindow.get(window) ?? []), record]);
  }
  // a batch is received as its window closes: lateness and the future are measured from there
  return [...byWindow].map(([window, batch]) => ({ records: batch, receivedAt: new Date((window + 1) * windowS * 1000) }));
}

/**
 * Delivers a batch as Lambda does: a partial batch failure (a vehicle whose writes lost a race, which a loaded
 * machine's SDK timeouts and retries cause) is delivered again, its records only; the retries' writes are counted.
 */
async function withRetries(
  batch: readonly SimulatedRecord[],
  send: (records: readonly SimulatedRecord[], attempt: number) => ReturnType<typeof processPositions>,
): ReturnType<typeof processPositions> {
  let records = batch;
  let accepted = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await send(records, attempt);
    accepted += outcome.accepted - outcome.failedIds.length;
    if (outcome.failedIds.length === 0) return { ...outcome, accepted };
    records = records.filter((_record, i) => outcome.failedIds.includes(String(i)));
  }
  throw new Error(`${records.length} records failed three times`);
}

const hh = (hour: number): string => String(hour).padStart(2, '0');

/** The end of a run's window: `hours` (perhaps a fraction) after FROM_HOUR. */
const untilOf = (date: string, hours: number): string =>
  new Date(Date.parse(`${date}T${hh(FROM_HOUR)}:00:00Z`) + hours * 3_600_000).toISOString();

/** What a run may change: the hours it sends (from FROM_HOUR), and what it seeds for the fleet's user before it. */
export interface IngestRunOptions {
  hours?: number;
  prepareUser?: (userUid: number) => Promise<void>;
}

/** One run: a new fleet and day through processPositions in the given batching window, with the figures of the table. */
export async function ingestRun(
  runNumber: number,
  windowS: number,
  lateShare: number,
  { hours = HOURS, prepareUser }: IngestRunOptions = {},
) {
  const date = `2026-10-${String(runNumber).padStart(2, '0')}`;
  // each run its own fleet (IMEIs) and day: the runs do not see each other's data
  const imeiOf = (imei: string) => imei.replace(/^35630704/, `3563${String(runNumber).padStart(4, '0')}`);
  const days = fleetDay(VEHICLES, date, REPORTING_S).map((day) => ({
    ...day,
    vehicle: { ...day.vehicle, imei: imeiOf(day.vehicle.imei) },
    records: day.records
      .filter((record) => record.gps_datetime >= `${date}T${hh(FROM_HOUR)}` && record.gps_datetime < untilOf(date, hours))
      .map((record) => ({ ...record, imei: imeiOf(record.imei) })),
  }));
  const user = await createUser(`Bench fleet ${date}`, 0);
  await prepareUser?.(user.userUid);
  for (const { vehicle: simulated } of days) {
    const vehicle = await addVehicle(
      vehicleDetails({
        imei: simulated.imei,
        name: `Bench ${simulated.imei.slice(-3)}`,
        deviceType: simulated.deviceType,
        config: simulated.config,
        odometerAtStart: simulated.odometerKm,
        odometerAtStartDate: date,
        fuelCapacity: simulated.fuelCapacity,
        fuelFactor: simulated.fuelFactor,
        ...(simulated.ignitionWired ? {} : { detection: { useIgnition: false } }),
      }),
    );
    await linkVehicle(user.userUid, vehicle.vehicleUid);
  }
  const batches = batchesOf(interleave(days), windowS, lateShare);
  Object.assign(usage, { writeRequests: 0, writeUnits: 0, readUnits: 0, historyBytes: 0 });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let positions = 0;
  let trips = 0;
  let fills = 0;
  for (const [n, { records: batch, receivedAt }] of batches.entries()) {
    const outcome = await withRetries(batch, (records, attempt) =>
      processPositions(
        records.map((record, i) => ({ id: String(i), data: JSON.stringify(record) })),
        { batchName: `bench-${date}-${n}-${attempt}`, receivedAt },
      ),
    );
    positions += outcome.accepted;
    trips += outcome.trips;
    fills += outcome.fills;
  }
  const seconds = (performance.now() - started) / 1000;
  const { user: userMicros, system: systemMicros } = process.cpuUsage(cpu);
  const inWindow = (at: string) => at >= `${date}T${hh(FROM_HOUR)}` && at < untilOf(date, hours);
  const truth = days.reduce(
    (sum, day) => ({
      trips: sum.trips + day.truth.trips.filter((trip) => inWindow(trip.stop)).length,
      fills: sum.fills + day.truth.fills.filter((fill) => inWindow(fill.at)).length,
    }),
    { trips: 0, fills: 0 },
  );
  console.error(`ingest run ${runNumber}: ${positions} positions in ${batches.length} batches, ${seconds.toFixed(0)} s`);
  return {
    positions,
    batches: batches.length,
    'positions/s': Math.round(positions / seconds),
    'write requests per position': (usage.writeRequests / positions).toFixed(3),
    'WCU per position': (usage.writeUnits / positions).toFixed(3),
    'RCU per position': (usage.readUnits / positions).toFixed(3),
    'history bytes per position': (usage.historyBytes / positions).toFixed(1),
    'trips (truth)': `${trips} (${truth.trips})`,
    'fills (truth)': `${fills} (${truth.fills})`,
    /** this process's CPU (the pipeline and the SDK; DynamoDB Local runs in its own) */
    cpuMsPerPosition: (userMicros + systemMicros) / 1000 / positions,
  };
}

export async function benchIngest(size: BenchSize = 'full'): Promise<Row[]> {
  measureCapacity();
  const rows: Row[] = [];
  let runNumber = 1;
  // smallest: the production shape, in order, for three minutes
  const arrivals = [
    ['in order', 0],
    ['10 % 1-6 h late', LATE_SHARE],
  ] as const;
  for (const { shape, windowS } of size === 'full' ? shapes : shapes.slice(0, 1)) {
    for (const [arrival, lateShare] of size === 'full' ? arrivals : arrivals.slice(0, 1)) {
      const options = size === 'full' ? {} : { hours: 0.05 };
      const { cpuMsPerPosition: _cpu, ...figures } = await ingestRun(runNumber++, windowS, lateShare, options);
      rows.push({ shape, arrival, ...figures });
    }
  }
  return rows;
}

export const ingestNotes = [
  `${VEHICLES} vehicles × ${HOURS} hours (${hh(FROM_HOUR)}:00-${hh(FROM_HOUR + HOURS)}:00) at ${REPORTING_S} s reporting (fleetDay), ` +
    `batches by arrival window; late positions chosen with a fixed seed`,
  "WCU and RCU are DynamoDB Local's ConsumedCapacity for every request (transactions count twice); write requests count items",
  'history bytes: the chunk items written (keys, attribute names, encoded points, TTL) per position; ' +
    'the newest points wait on the track item (≤ 1 KB with the live record) until they fill a chunk',
];
