/**
 * Measurements, printed as a markdown table per benchmark and one JSON line (never asserted in tests).
 *   npm run bench                  every benchmark
 *   npm run bench -- operations    p50/p99 of every operation over HTTP through the API emulator, its handler called directly
 *                                  (the service without the local stack's HTTP hop and IAM check) and its own DynamoDB requests
 *                                  sent again through the SDK, next to the floor (one GetItem on the same DynamoDB Local): p50 ÷
 *                                  (floor × round trips) against the 1.2 (reads) / 1.3 (writes) target, the DynamoDB requests
 *                                  and round trips per call (BENCH_CALLS, BENCH_KEY_CACHE_SECONDS, BENCH_OPERATIONS=a,b)
 *   npm run bench -- bundles       bundle size, cold module init and init + first answer per function, next to an empty handler
 *                                  with the same SDK; the API operations also with a first real call on DynamoDB Local, next to
 *                                  the empty handler's first GetItem through the same client
 *   npm run bench -- ingest        processPositions on DynamoDB Local in two batch shapes (production: ≈1 position per vehicle
 *                                  per batch; 10 per vehicle), in order and 10 % 1-6 h late: positions/s, write requests,
 *                                  WCU and RCU per position (ReturnConsumedCapacity), history bytes per position
 *   npm run bench -- cost          the monthly cost of one vehicle (30 s reports, a realistic API mix) from capacity units
 *                                  measured on DynamoDB Local, measured durations and the prices in scripts/bench/prices.ts
 *   npm run bench -- pipeline      processPositions at batch sizes 8 to 1,000: ms per batch and positions/s per batcher
 *   npm run bench -- devices       positions/s and p50/p99 through each device entry point (OsmAnd, Traccar, Teltonika), and
 *                                  Teltonika packets/s with 200 units connected at once
 *   npm run bench -- device-cost   what each device entry point adds per vehicle-month, from scripts/bench/prices.ts
 *   npm run bench -- sizes         per growing operation: bytes per record, gzip ratio, and the largest fleet × range one
 *                                  answer holds within the answer budget and Lambda's 6 MB, plain and gzip-compressed
 *   npm run bench -- positions     getPositions over days of 1 s history: positions answered, p50 ms and the MB of history a call reads
 *   npm run bench -- webhooks      deliveries/s and event-to-delivery p50/p99 to a receiver on 127.0.0.1 through the local
 *                                  router and sender, alone and beside an endpoint that fails everything
 *   npm run bench -- events        WCU per position at ingest's production shape with 0 and 50 zones per user, pipeline CPU
 *                                  per position with 10, 1,000 and 10,000 zones, a point's time to its event in getEvents,
 *                                  and the feed reads below
 *   npm run bench -- feed          items read and latency per getEvents and redeliverEvents call for a user of 10, 1,000
 *                                  and 10,000 vehicles
 *   npm run bench -- tracks        the real drives through the pipeline as recorded, at 1 s and 30 s with and without speed, at
 *                                  5-15 s without speed, clean and with 10 m of independent error: distance error
 *                                  and trips against truth, WCU and CPU per position; an hour of driving at 1 s in US$
 *   npm run bench -- gps-error     the real drives through the detector with GPS error added (independent 3-10 m at 5-15 s,
 *                                  drifting 3-10 m), with and without speed: distance error against the clean drive's truth
 *   --smallest                     each named plan once at its smallest size: proves it runs
 *                                  (test/project/benches.whole-table.test.ts), no figures
 *   npm run bench -- console       the console in Chromium: time to the fleet on the map with 10 and 1,000 vehicles, frame
 *                                  times while zooming, API requests per minute of an idle tab, and the built files' sizes
 *   --out FILE                     also write the JSON to FILE
 */
import '../local/quiet-powertools.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type LocalStack, startLocalStack } from '../local/stack.ts';
import { type BenchSize, printTable, type Row } from './bench/report.ts';
import { runScript, UsageError, userPath } from './cli.ts';

/**
 * `delivery`: webhooks delivered from the table's stream, as npm start does. Without it the table has no stream: DynamoDB
 * Local looks a table's stream up on every request to it, in a query that grows with the records it holds (docs/testing.md),
 * which slowed the operations bench's writes late in a run (addWebhook 1.33, deleteWebhook 1.38, deleteUserLocation 1.38
 * handler ÷ SDK with a stream; 1.00–1.03 without). AWS charges a write no such thing.
 */
async function withLocalStack<T>(size: BenchSize, delivery: boolean, run: (stack: LocalStack) => Promise<T>): Promise<T> {
  // The benchmark calls with one key as fast as it can; the per-key limit would measure itself.
  process.env.RATE_LIMIT_PER_SECOND ??= '0';
  // As npm start: webhooks to receivers on 127.0.0.1.
  process.env.WEBHOOK_ALLOW_LOCAL_TARGETS ??= '1';
  const s3Dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const stack = await startLocalStack({
    apiPort: await freePort(),
    dynamoPort: await freePort(),
    s3Port: await freePort(),
    deviceTcpPort: await freePort(),
    s3Dir,
    tableName: 'fleet-tracking-bench',
    webhooks: delivery ? true : 'queue',
    bucketName: 'fleet-tracking-bench',
    // the smallest run proves each plan runs, in a minute: its figures are not read, so the JVM need not reach full speed
    shortRun: size === 'smallest',
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
  /** the local stack, and `delivery` when it must deliver webhooks from the table's stream */
  needsStack: boolean | 'delivery';
  run: (stack: LocalStack | undefined, size: BenchSize) => Promise<Result>;
}

/** Imported when selected: the bundles benchmark loads the CDK, the operations one seeds the demo account. */
const benchmarks: Record<string, Benchmark> = {
  operations: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('operations needs the local stack');
      const { benchOperations, operationsNotes } = await import('./bench/operations.ts');
      return { rows: await benchOperations(stack.apiUrl, size), notes: operationsNotes };
    },
  },
  bundles: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('bundles needs the local stack');
      const { benchBundles, bundlesNotes } = await import('./bench/bundles.ts');
      return { rows: await benchBundles(stack, size), notes: bundlesNotes };
    },
  },
  ingest: {
    needsStack: true,
    run: async (_stack, size) => {
      const { benchIngest, ingestNotes } = await import('./bench/ingest.ts');
      return { rows: await benchIngest(size), notes: ingestNotes };
    },
  },
  cost: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('cost needs the local stack');
      const { benchCost, costNotes } = await import('./bench/cost.ts');
      return { rows: await benchCost(stack.apiUrl, size), notes: costNotes };
    },
  },
  devices: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('devices needs the local stack');
      const { benchDevices, devicesNotes } = await import('./bench/devices.ts');
      return { rows: await benchDevices(stack, size), notes: devicesNotes };
    },
  },
  webhooks: {
    needsStack: 'delivery',
    run: async (_stack, size) => {
      const { benchWebhooks, webhooksNotes } = await import('./bench/webhooks.ts');
      return { rows: await benchWebhooks(size), notes: webhooksNotes };
    },
  },
  'device-cost': {
    needsStack: false,
    run: async () => {
      const { deviceCost, deviceCostNotes } = await import('./bench/device-cost.ts');
      return { rows: deviceCost(), notes: deviceCostNotes };
    },
  },
  sizes: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('sizes needs the local stack');
      const { benchSizes, sizesNotes } = await import('./bench/sizes.ts');
      return { rows: await benchSizes(stack.apiUrl, size), notes: sizesNotes };
    },
  },
  limiter: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('limiter needs the local stack');
      const { benchLimiter, limiterNotes } = await import('./bench/limiter.ts');
      return { rows: await benchLimiter(stack.apiUrl, undefined, size), notes: limiterNotes };
    },
  },
  positions: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('positions needs the local stack');
      const { benchPositions, positionsNotes } = await import('./bench/positions.ts');
      return { rows: await benchPositions(stack.apiUrl, size), notes: positionsNotes };
    },
  },
  tracks: {
    needsStack: true,
    run: async (_stack, size) => {
      const { benchTracks, hourAt1sCost, tracksNotes } = await import('./bench/tracks.ts');
      const rows = await benchTracks(size);
      // the hour at 1 s is priced from the 1 s runs, which the smallest size leaves out
      return { rows, notes: size === 'full' ? [...tracksNotes, hourAt1sCost()] : tracksNotes };
    },
  },
  'gps-error': {
    needsStack: false,
    run: async (_stack, size) => {
      const { benchGpsError, gpsErrorNotes } = await import('./bench/gps-error.ts');
      return { rows: benchGpsError(size), notes: gpsErrorNotes };
    },
  },
  pipeline: {
    needsStack: true,
    run: async (_stack, size) => {
      const { benchPipelineSizing, pipelineSizingNotes } = await import('./bench/cost.ts');
      return { rows: await benchPipelineSizing(size), notes: pipelineSizingNotes };
    },
  },
  console: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('console needs the local stack');
      const { benchConsole, consoleNotes } = await import('./bench/console.ts');
      const { rows, sizes } = await benchConsole(stack.apiUrl, size);
      return { rows, notes: [...consoleNotes, ...sizes] };
    },
  },
  events: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('events needs the local stack');
      const { benchEvents, eventsNotes } = await import('./bench/events.ts');
      const { benchFeedReads, feedReadsNotes } = await import('./bench/feed-reads.ts');
      const rows = await benchEvents(stack.apiUrl, size);
      const feedRows = await benchFeedReads(stack.apiUrl, size);
      printTable('events: feed reads', feedRows, feedReadsNotes);
      return { rows: [...rows, ...feedRows], notes: eventsNotes };
    },
  },
  feed: {
    needsStack: true,
    run: async (stack, size) => {
      if (!stack) throw new Error('feed needs the local stack');
      const { benchFeedReads, feedReadsNotes } = await import('./bench/feed-reads.ts');
      return { rows: await benchFeedReads(stack.apiUrl, size), notes: feedReadsNotes };
    },
  },
};

await runScript({
  usage: `
npm run bench -- [${Object.keys(benchmarks).join('] [')}] [--smallest] [--out FILE]

Runs the named benchmarks (all when none is named) on a fresh local stack of its own (free ports, in memory),
prints a markdown table each and one JSON line; --out also writes the JSON to FILE (relative to the folder
you run npm in); --smallest runs each plan once at its least (a check that it runs, not figures to quote).
Measurements only: nothing is asserted.`,
  options: { out: 'string', smallest: 'boolean' },
  async run({ values, positionals }) {
    const size: BenchSize = values.smallest === true ? 'smallest' : 'full';
    const selected = positionals.length ? positionals : Object.keys(benchmarks);
    const unknown = selected.filter((name) => !benchmarks[name]);
    if (unknown.length) throw new UsageError(`unknown benchmark ${unknown.join(', ')}; one of: ${Object.keys(benchmarks).join(', ')}`);
    const results: Record<string, Row[]> = {};
    const runSelected = async (stack?: LocalStack) => {
      for (const name of selected) {
        const started = performance.now();
        const { rows, notes } = await (benchmarks[name] as Benchmark).run(stack, size);
        results[name] = rows;
        printTable(name, rows, notes);
        console.error(`${name}: ${Math.round((performance.now() - started) / 100) / 10} s`);
      }
    };
    const delivery = selected.some((name) => benchmarks[name]?.needsStack === 'delivery');
    if (selected.some((name) => benchmarks[name]?.needsStack)) await withLocalStack(size, delivery, runSelected);
    else await runSelected();
    const json = JSON.stringify(results);
    console.log(`\n${json}`);
    if (typeof values.out === 'string') writeFileSync(userPath(values.out), `${json}\n`);
  },
});
