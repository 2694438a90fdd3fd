/**
 * Measurements, printed as a markdown table and JSON (never asserted in tests).
 *   npm run bench              every benchmark
 *   npm run bench -- ingest    positions/s through processPositions on DynamoDB Local, 100 vehicles × one day at 30 s,
 *                              and DynamoDB write requests per 1,000 positions
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalStack } from '../local/stack.ts';
import { fleetDay, interleave } from '../local/simulator.ts';
import { createUser } from '../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../shared/store/vehicles.ts';
import { ingestRecords } from './ingest.ts';

type Row = Record<string, string | number>;

async function withLocalStack<T>(run: () => Promise<T>): Promise<T> {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const s3Dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const stack = await startLocalStack({
    apiPort: await freePort(),
    dynamoPort: await freePort(),
    s3Port: await freePort(),
    s3Dir,
    tableName: 'fleet-tracking-bench',
    bucketName: 'fleet-tracking-bench',
  });
  try {
    return await run();
  } finally {
    await stack.stop();
    rmSync(s3Dir, { recursive: true, force: true });
  }
}

async function benchIngest(vehicles = 100, intervalS = 30): Promise<Row[]> {
  const days = fleetDay(vehicles, '2026-11-02', intervalS);
  const user = await createUser('Bench fleet', 0);
  for (const day of days) {
    const vehicle = await addVehicle({
      imei: day.vehicle.imei, name: `Bench ${day.vehicle.imei.slice(-3)}`, regNum: null, vehGrp: null, deviceType: day.vehicle.deviceType,
      config: day.vehicle.config, make: null, model: null, modelYear: null, vin: null, startOdo: day.vehicle.odometerKm, startOdoDate: '2026-11-01',
      startHours: null, startHoursDate: null, licenceExpireDate: null, fuelCapacity: day.vehicle.fuelCapacity, fuelFactor: day.vehicle.fuelFactor,
    });
    await linkVehicle(user.userUid, vehicle.vehicleUid);
  }
  const lines = interleave(days).map((record) => JSON.stringify(record));
  const started = performance.now();
  const totals = await ingestRecords(lines, 'bench');
  const seconds = (performance.now() - started) / 1000;
  const truth = days.reduce((sum, day) => ({ trips: sum.trips + day.truth.trips.length, fills: sum.fills + day.truth.fills.length }), { trips: 0, fills: 0 });
  return [
    { measure: 'positions ingested', value: totals.records },
    { measure: 'vehicles', value: totals.vehicles },
    { measure: 'wall time (s)', value: seconds.toFixed(1) },
    { measure: 'positions per second', value: Math.round(totals.records / seconds) },
    { measure: 'DynamoDB write requests', value: totals.writeRequests },
    { measure: 'write requests per 1,000 positions', value: ((totals.writeRequests / totals.records) * 1000).toFixed(1) },
    { measure: 'trips detected (simulated truth)', value: `${totals.trips} (${truth.trips})` },
    { measure: 'fills detected (simulated truth)', value: `${totals.fills} (${truth.fills})` },
  ];
}

function printTable(title: string, rows: Row[]): void {
  const columns = Object.keys(rows[0] ?? {});
  console.log(`\n### ${title}\n`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((column) => row[column]).join(' | ')} |`);
}

const benchmarks: Record<string, () => Promise<Row[]>> = {
  ingest: () => benchIngest(),
};

const wanted = process.argv.slice(2);
const selected = wanted.length ? wanted : Object.keys(benchmarks);
const unknown = selected.filter((name) => !benchmarks[name]);
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; one of: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(1);
}
const results: Record<string, Row[]> = {};
await withLocalStack(async () => {
  for (const name of selected) {
    results[name] = await (benchmarks[name] as () => Promise<Row[]>)();
    printTable(name, results[name]);
  }
});
console.log(`\n${JSON.stringify(results)}`);
