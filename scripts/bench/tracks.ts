/**
 * Real drives through the pipeline (npm run bench -- tracks): the seven enviroCar drives (test/fixtures; ODbL 1.0)
 * as a device without ignition wiring sends them, at their own rate (5 s), 1 s and 30 s with and without speed, at 5, 10
 * and 15 s without speed, and at 5, 10 and 15 s without speed with an independent error of 10 m on every fix (against the
 * clean drive's truth), through processPositions
 * on DynamoDB Local in the stream's 30 s batching windows, then the quiet-vehicles check an hour after the last point
 * (which closes a trip still open); then each car's drives of a day as one vehicle's (the stops between them unseen: the
 * recordings stop with the engine). Per drive: kilometres and trips against the truth rule of test/support/real-drives.ts,
 * and the pipeline's write units (DynamoDB Local's ConsumedCapacity) and CPU time per position.
 */
import { pipelineSettings } from '../../infra/positions/positions-pipeline.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { checkQuietVehicles } from '../../shared/pipeline/quiet-vehicles.ts';
import { findTrackedVehicles } from '../../shared/store/tracks.ts';
import { listTrips } from '../../shared/store/trips.ts';
import { hash, prng } from '../../simulator/random.ts';
import { givenUser, givenVehicle } from '../../test/support/builders.ts';
import { atRate, type Fix, realDrives, recordsOf, truthOf, withIndependentError } from '../../test/support/real-drives.ts';
import { measureCapacity, usage } from './capacity.ts';
import { prices } from './prices.ts';
import type { BenchSize, Row } from './report.ts';
import { round } from './report.ts';

const RATES_S = [1, 30] as const;
/** metres per axis of the independent error the noisy reportings add */
const ERROR_M = 10;

/** How a drive is reported: every `everyS` seconds (0: as recorded), with or without speed, with an error added or none. */
interface Reporting {
  everyS: number;
  withSpeed: boolean;
  errorM: number;
}

const REPORTINGS: readonly Reporting[] = [
  ...[0, ...RATES_S].flatMap((everyS) => [true, false].map((withSpeed) => ({ everyS, withSpeed, errorM: 0 }))),
  ...[5, 10, 15].flatMap((everyS) => [0, ERROR_M].map((errorM) => ({ everyS, withSpeed: false, errorM }))),
];
const labelOf = ({ everyS, errorM }: Reporting): string => `${everyS || 'own'}${errorM ? ` ±${errorM} m` : ''}`;
const WINDOW_S = pipelineSettings.batchingWindowS;

interface Run {
  withSpeed: boolean;
  positions: number;
  km: number;
  trips: number;
  truthKm: number;
  truthTrips: number;
  writeUnits: number;
  cpuMs: number;
  batches: number;
  drivingS: number;
}

/** One drive through the pipeline: batches as the stream's window cuts them, each received as its window closes. */
async function throughThePipeline(fixes: readonly Fix[], withSpeed: boolean, truthFixes: readonly Fix[] = fixes): Promise<Run> {
  const user = await givenUser();
  const vehicle = await givenVehicle(user, { odometerAtStart: 0, detection: { useIgnition: false } });
  const records = recordsOf(vehicle.imei, fixes, withSpeed);
  const windows = new Map<number, typeof records>();
  for (const record of records) {
    const window = Math.floor(Date.parse(record.gps_datetime) / 1000 / WINDOW_S);
    windows.set(window, [...(windows.get(window) ?? []), record]);
  }
  const before = { ...usage };
  let cpuMicros = 0;
  let received = new Date(0);
  for (const [window, batch] of windows) {
    received = new Date((window + 1) * WINDOW_S * 1000);
    const cpu = process.cpuUsage();
    const outcome = await processPositions(
      batch.map((record, i) => ({ id: String(i), data: JSON.stringify(record) })),
      { batchName: `bench-tracks-${vehicle.vehicleUid}-${window}`, receivedAt: received },
    );
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    if (outcome.failedIds.length > 0 || outcome.rejected.length > 0)
      throw new Error(`batch ${window} failed: ${JSON.stringify(outcome.rejected[0])}`);
  }
  const writeUnits = usage.writeUnits - before.writeUnits;
  await checkQuietVehicles(new Date(received.getTime() + 3600_000 + 60_000));
  const live = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei)?.live;
  const trips = await listTrips(vehicle.vehicleUid, '0000', '9999');
  const truth = truthOf(truthFixes);
  return {
    withSpeed,
    positions: records.length,
    km: live?.odometerKm ?? 0,
    trips: trips.length,
    truthKm: truth.distanceKm,
    truthTrips: truth.trips,
    writeUnits,
    cpuMs: cpuMicros / 1000,
    batches: windows.size,
    drivingS: ((fixes.at(-1) as Fix).at - (fixes[0] as Fix).at) / 1000,
  };
}

/** the cars whose drives of a day are also run as one vehicle's */
const CARS = ['skoda', 'kia'] as const;

const rowOf = (drive: string, reporting: Reporting, run: Run): Row => ({
  drive,
  'every s': labelOf(reporting),
  speed: reporting.withSpeed ? 'yes' : 'no',
  positions: run.positions,
  'km (truth)': `${round(run.km, 2)} (${round(run.truthKm, 2)})`,
  'distance error %': round(((run.km - run.truthKm) / run.truthKm) * 100, 2),
  'trips (truth)': `${run.trips} (${run.truthTrips})`,
  'WCU per position': round(run.writeUnits / run.positions, 3),
  'CPU ms per position': round(run.cpuMs / run.positions, 3),
});

/** every run of this process, by reporting: the last note prices the 1 s ones */
const totals = new Map<string, Run[]>();

export async function benchTracks(size: BenchSize = 'full'): Promise<Row[]> {
  measureCapacity();
  const rows: Row[] = [];
  // smallest: the first drive at 30 s, with speed
  const drives = size === 'full' ? realDrives : realDrives.slice(0, 1);
  const reportings = size === 'full' ? REPORTINGS : [{ everyS: 30, withSpeed: true, errorM: 0 }];
  for (const { name, fixes } of drives)
    for (const reporting of reportings) {
      const clean = reporting.everyS ? atRate(fixes, reporting.everyS) : fixes;
      const reported = reporting.errorM ? clean.map(withIndependentError(prng(hash(name)), reporting.errorM)) : clean;
      const run = await throughThePipeline(reported, reporting.withSpeed, clean);
      totals.set(labelOf(reporting), [...(totals.get(labelOf(reporting)) ?? []), run]);
      rows.push(rowOf(name, reporting, run));
    }
  // smallest: one car's day at one rate, with speed
  for (const car of size === 'full' ? CARS : CARS.slice(0, 1))
    for (const everyS of size === 'full' ? RATES_S : RATES_S.slice(-1))
      for (const withSpeed of size === 'full' ? [true, false] : [true]) {
        const drives = realDrives.filter(({ name }) => name.startsWith(car));
        const run = await throughThePipeline(
          drives.flatMap(({ fixes }) => atRate(fixes, everyS)),
          withSpeed,
        );
        rows.push(rowOf(`${car}, its ${drives.length} drives of a day as one vehicle's`, { everyS, withSpeed, errorM: 0 }, run));
      }
  for (const [label, runs] of totals) {
    const sum = (pick: (run: Run) => number) => runs.reduce((total, run) => total + pick(run), 0);
    const positions = sum((run) => run.positions);
    const hours = sum((run) => run.drivingS) / 3600;
    rows.push({
      drive: `all drives (${round(hours, 2)} h)`,
      'every s': label,
      speed: new Set(runs.map((run) => run.withSpeed)).size > 1 ? 'both' : runs[0]?.withSpeed ? 'yes' : 'no',
      positions,
      'km (truth)': `${round(
        sum((run) => run.km),
        1,
      )} (${round(
        sum((run) => run.truthKm),
        1,
      )})`,
      'distance error %': round(((sum((run) => run.km) - sum((run) => run.truthKm)) / sum((run) => run.truthKm)) * 100, 2),
      'trips (truth)': `${sum((run) => run.trips)} (${sum((run) => run.truthTrips)})`,
      'WCU per position': round(sum((run) => run.writeUnits) / positions, 3),
      'CPU ms per position': round(sum((run) => run.cpuMs) / positions, 3),
    });
  }
  return rows;
}

/** What an hour of driving at 1 s costs the pipeline, from the 1 s totals: DynamoDB writes, Lambda, Kinesis, S3 (a note). */
export function hourAt1sCost(): string {
  const runs = totals.get('1') ?? [];
  const positions = runs.reduce((total, run) => total + run.positions, 0);
  const wcu = runs.reduce((total, run) => total + run.writeUnits, 0) / positions;
  const cpuS = runs.reduce((total, run) => total + run.cpuMs, 0) / positions / 1000;
  const hour = 3600;
  const dynamodb = (hour * wcu * prices.dynamodb.perMillionWriteRequestUnits) / 1e6;
  // CPU time is the floor of the function's billed duration (waits on DynamoDB come on top)
  const lambda = hour * cpuS * (pipelineSettings.memoryMb / 1024) * prices.lambda.perGbSecondArm;
  // each record rounded up to 1 KB, in and out of the stream
  const kinesis = ((hour * 1024) / 2 ** 30) * (prices.kinesis.perGbIngested + prices.kinesis.perGbRetrieved);
  const archive = ((hour / WINDOW_S) * prices.s3.perThousandPuts) / 1000;
  const usd = (value: number) => `$${value.toFixed(5)}`;
  return (
    `one vehicle reporting every second, per hour of driving (${prices.region}, ${prices.asOf} prices): ` +
    `DynamoDB writes ${usd(dynamodb)} (${round(hour * wcu, 0)} WCU), Lambda ${usd(lambda)} (CPU floor, ${round(hour * cpuS, 1)} s at ` +
    `${pipelineSettings.memoryMb} MB), Kinesis ${usd(kinesis)}, S3 archive PUTs ${usd(archive)}: ` +
    usd(dynamodb + lambda + kinesis + archive)
  );
}

export const tracksNotes = [
  `each drive as recorded (own: 5 s) and resampled to 1 s and 30 s (test/support/real-drives.ts atRate), with and without speed; ` +
    `at 5, 10 and 15 s without speed, clean and with an independent error of ±${ERROR_M} m per axis on every fix (withIndependentError, ` +
    `against the clean drive's truth); in ${WINDOW_S} s batching windows (one batch per window), each received as its window ` +
    'closes; the quiet-vehicles check then closes a trip still open',
  "km: the vehicle's odometer after the drive; truth: the path less steps under 3 km/h, trips between stops of 200 m / 180 s " +
    '(test/support/real-drives.ts truthOf); the last note prices an hour at 1 s from the 1 s runs and scripts/bench/prices.ts',
  "WCU: DynamoDB Local's ConsumedCapacity of every write (transactions count twice); CPU: this process's user + system time " +
    'in processPositions (DynamoDB Local and s3rver run apart), the floor of the Lambda duration',
];
