/**
 * Measurements, printed as a markdown table per benchmark and one JSON line (never asserted in tests).
 *   npm run bench                  every benchmark
 *   npm run bench -- operations    p50/p99 of every operation over HTTP through the API emulator, next to the floor
 *                                  (one GetItem on the same DynamoDB Local), and the DynamoDB requests and round trips per call
 *   npm run bench -- bundles       bundle size and cold module-init time per function, next to an empty handler's
 *   npm run bench -- ingest        processPositions on DynamoDB Local in two batch shapes (production: ≈1 position per vehicle
 *                                  per batch; 10 per vehicle), in order and 10 % 1-6 h late: positions/s, write requests,
 *                                  WCU and RCU per position (ReturnConsumedCapacity), history bytes per position
 *   --out FILE                     also write the JSON to FILE
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type LocalStack, startLocalStack } from '../local/stack.ts';
import { printTable, type Row } from './bench/report.ts';

async function withLocalStack<T>(run: (stack: LocalStack) => Promise<T>): Promise<T> {
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
    return await run(stack);
  } finally {
    await stack.stop();
    rmSync(s3Dir, { recursive: true, force: true });
  }
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
  ingest: {
    needsStack: true,
    run: async () => {
      const { benchIngest, ingestNotes } = await import('./bench/ingest.ts');
      return { rows: await benchIngest(), notes: ingestNotes };
    },
  },
};

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const outFile = outAt >= 0 ? args[outAt + 1] : undefined;
if (outAt >= 0 && !outFile) {
  console.error('--out needs a file name');
  process.exit(1);
}
const wanted = args.filter((_, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
const selected = wanted.length ? wanted : Object.keys(benchmarks);
const unknown = selected.filter((name) => !benchmarks[name]);
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; one of: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(1);
}
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
if (outFile) writeFileSync(outFile, `${json}\n`);
