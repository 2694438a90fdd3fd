/**
 * Measurements, printed as a markdown table per benchmark and one JSON line (never asserted in tests).
 *   npm run bench                  every benchmark
 *   npm run bench -- operations    p50/p99 of every operation over HTTP through the API emulator, next to the floor
 *                                  (one GetItem on the same DynamoDB Local), and the DynamoDB requests and round trips per call
 *   npm run bench -- bundles       bundle size and cold module-init time per function, next to an empty handler's
 *   npm run bench -- ingest        positions/s through processPositions on DynamoDB Local, 100 vehicles × one day at 30 s,
 *                                  and DynamoDB write requests per 1,000 positions
 *   npm run bench -- cost          the monthly cost of one vehicle (30 s reports, a realistic API mix) from capacity units
 *                                  measured on DynamoDB Local, measured durations and the prices in scripts/bench/prices.ts
 *   npm run bench -- pipeline      processPositions at batch sizes 8 to 1,000: ms per batch and positions/s per batcher
 *   --out FILE                     also write the JSON to FILE
 */
import '../local/quiet-powertools.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type LocalStack, startLocalStack } from '../local/stack.ts';
import { fleetDay, interleave } from '../local/simulator.ts';
import { createUser } from '../shared/store/users.ts';
import { addVehicle, linkVehicle } from '../shared/store/vehicles.ts';
import { printTable, type Row } from './bench/report.ts';
import { runScript, UsageError, userPath } from './cli.ts';
import { ingestRecords } from './ingest.ts';

async function withLocalStack<T>(run: (stack: LocalStack) => Promise<T>): Promise<T> {
  // The benchmark calls with one key as fast as it can; the per-key limit would measure itself.
  process.env.RATE_LIMIT_REQUESTS ??= '0';
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
    return await run(stack);
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
      config: day.vehicle.config, make: null, model: null, modelYear: null, vin: null, odometerAtStart: day.vehicle.odometerKm, odometerAtStartDate: '2026-11-01',
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

interface Result {
  rows: Row[];
  notes?: readonly string[];
}

interface Benchmark {
  needsStack: boolean;
  run: (stack?: LocalStack) => Promise<Result>;
}

/** Imported when selected: the bundles benchmark loads the CDK, the operations one seeds the demo account. */
const benchmarks: Record<string, Benchmark> = {
  operations: {
    needsStack: true,
    run: async (stack) => {
      if (!stack) throw new Error('operations needs the local stack');
      const { benchOperations, operationsNotes } = await import('./bench/operations.ts');
      return { rows: await benchOperations(stack.apiUrl), notes: operationsNotes };
    },
  },
  bundles: {
    needsStack: false,
    run: async () => {
      const { benchBundles, bundlesNotes } = await import('./bench/bundles.ts');
      return { rows: await benchBundles(), notes: bundlesNotes };
    },
  },
  ingest: { needsStack: true, run: async () => ({ rows: await benchIngest() }) },
  cost: {
    needsStack: true,
    run: async (stack) => {
      if (!stack) throw new Error('cost needs the local stack');
      const { benchCost, costNotes } = await import('./bench/cost.ts');
      return { rows: await benchCost(stack.apiUrl), notes: costNotes };
    },
  },
  pipeline: {
    needsStack: true,
    run: async () => {
      const { benchPipelineSizing, pipelineSizingNotes } = await import('./bench/cost.ts');
      return { rows: await benchPipelineSizing(), notes: pipelineSizingNotes };
    },
  },
};

await runScript({
  usage: `
npm run bench -- [${Object.keys(benchmarks).join('] [')}] [--out FILE]

Runs the named benchmarks (all when none is named) on a fresh local stack of its own (free ports, in memory),
prints a markdown table each and one JSON line; --out also writes the JSON to FILE (relative to the folder
you run npm in). Measurements only: nothing is asserted.`,
  options: { out: 'string' },
  async run({ values, positionals }) {
    const selected = positionals.length ? positionals : Object.keys(benchmarks);
    const unknown = selected.filter((name) => !benchmarks[name]);
    if (unknown.length) throw new UsageError(`unknown benchmark ${unknown.join(', ')}; one of: ${Object.keys(benchmarks).join(', ')}`);
    const results: Record<string, Row[]> = {};
    const runSelected = async (stack?: LocalStack) => {
      for (const name of selected) {
        const { rows, notes } = await (benchmarks[name] as Benchmark).run(stack);
        results[name] = rows;
        printTable(name, rows, notes);
      }
    };
    if (selected.some((name) => benchmarks[name]?.needsStack)) await withLocalStack(runSelected);
    else await runSelected();
    const json = JSON.stringify(results);
    console.log(`\n${json}`);
    if (typeof values.out === 'string') writeFileSync(userPath(values.out), `${json}\n`);
  },
});
