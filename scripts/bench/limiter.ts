/**
 * What the per-key token bucket adds to a request: latency, over real HTTP through the in-process API emulator on
 * DynamoDB Local, calls with and without the limit interleaved so both see the same machine at the same moment; and
 * write units, metered on the bucket's own writes, priced at on-demand rates (prices.ts).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimitDefaults } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { type BucketPolicy, intervalMs } from '../../shared/domain/token-bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { takeToken } from '../../shared/store/rate-limits.ts';
import { givenUser, type TestUser } from '../../test/support/builders.ts';
import { callOperation, UNREACHED_LIMIT } from './operations.ts';
import { prices } from './prices.ts';
import { type BenchSize, percentile, type Row, round } from './report.ts';

/** the full figures, and the least that still runs every step (test/project/benches.whole-table.test.ts) */
const countsBySize = {
  full: { calls: Number(process.env.BENCH_CALLS ?? 200), warmUp: 20, burst: 40 },
  smallest: { calls: 1, warmUp: 0, burst: 2 },
} as const;
const { calls: CALLS, warmUp: WARM_UP_CALLS } = countsBySize.full;

export const limiterNotes = [
  `${CALLS} sequential getExpenseTypes calls with the limit and ${CALLS} without, interleaved, after ${WARM_UP_CALLS} warm-up calls; ` +
    "the API key cache is off, as on a cold container: the key is looked up, then its bucket's write runs alongside the read's own query",
  'bucket write alone: one takeToken straight to DynamoDB Local, what the limit adds to a write (whose bucket is spent before ' +
    'its own requests); a read adds it only where it is slower than its own requests',
  'write units are metered on the bucket writes (ReturnConsumedCapacity); a refused request pays its failed conditional write; ' +
    `US$ at ${prices.region} on-demand prices (${prices.asOf})`,
];

interface Meter {
  writes: number;
  units: number;
}

let meter: Meter | undefined;

/** Counts the bucket's writes and the write units DynamoDB says they consumed. */
function meterBucketWrites(): void {
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { Key?: { pk?: unknown }; ReturnConsumedCapacity?: string };
      if (!meter || !String(input.Key?.pk).startsWith('RATE#')) return next(args);
      input.ReturnConsumedCapacity = 'TOTAL';
      meter.writes++;
      try {
        const result = await next(args);
        meter.units += (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits ?? 0;
        return result;
      } catch (error) {
        // A failed condition still costs its write; DynamoDB Local reports no capacity for it.
        meter.units += 1;
        throw error;
      }
    },
    { step: 'initialize', name: 'benchBucketMeter' },
  );
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Sends `run` for each of `requests` requests and answers the write units and writes each cost on average. */
async function metered(requests: number, run: () => Promise<unknown>): Promise<Meter> {
  meter = { writes: 0, units: 0 };
  await run();
  const { writes, units } = meter;
  meter = undefined;
  return { writes: writes / requests, units: units / requests };
}

const dollarsPerMillion = (units: number) => round(units * prices.dynamodb.perMillionWriteRequestUnits, 3);

export async function benchLimiter(apiUrl: string, policy: BucketPolicy = rateLimitDefaults, size: BenchSize = 'full'): Promise<Row[]> {
  const { calls: CALLS, warmUp: WARM_UP_CALLS, burst: BURST } = countsBySize[size];
  process.env.API_KEY_CACHE_SECONDS = '0';
  meterBucketWrites();
  const user: TestUser = await givenUser();
  const call = (limited: boolean) => {
    process.env.RATE_LIMIT_PER_SECOND = limited ? UNREACHED_LIMIT : '0';
    return callOperation(apiUrl, 'getExpenseTypes', user, {});
  };
  for (let i = 0; i < WARM_UP_CALLS; i++) await call(i % 2 === 0);
  const latencies = { with: [] as number[], without: [] as number[], write: [] as number[] };
  for (let i = 0; i < CALLS; i++) {
    latencies.with.push(await timed(() => call(true)));
    latencies.without.push(await timed(() => call(false)));
    latencies.write.push(await timed(() => takeToken(hashApiKey(`bench-${i}`), policy)));
  }
  const latencyRow = (name: string, p50: number, p99: number): Row => ({
    measure: name,
    'p50 ms': round(p50),
    'p99 ms': round(p99),
    'writes/request': '',
    'WCU/request': '',
    'US$/million requests': '',
  });
  const percentiles = (samples: number[]): [number, number] => [percentile(samples, 50), percentile(samples, 99)];

  process.env.RATE_LIMIT_PER_SECOND = String(policy.perSecond);
  process.env.RATE_LIMIT_BURST = String(policy.burst);
  const key = (name: string) => hashApiKey(`${name}-${user.key}`);
  const sequential = await metered(CALLS, async () => {
    for (let i = 0; i < CALLS; i++) await takeToken(key('sequential'), policy);
  });
  const burst = await metered(BURST, () => Promise.all(Array.from({ length: BURST }, () => takeToken(key('burst'), policy))));
  // Empty for a minute, so every request of the burst is refused however long it takes here.
  const emptyTat = Date.now() + policy.burst * intervalMs(policy) + 60_000;
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...keys.rateBucket(key('refused')), tat: emptyTat } }));
  const refused = await metered(BURST, () => Promise.all(Array.from({ length: BURST }, () => takeToken(key('refused'), policy))));
  const costRow = (name: string, { writes, units }: Meter): Row => ({
    measure: name,
    'p50 ms': '',
    'p99 ms': '',
    'writes/request': round(writes, 2),
    'WCU/request': round(units, 2),
    'US$/million requests': dollarsPerMillion(units),
  });
  return [
    latencyRow('getExpenseTypes with the limit', ...percentiles(latencies.with)),
    latencyRow('getExpenseTypes without the limit', ...percentiles(latencies.without)),
    latencyRow(
      'added by the limit (difference)',
      percentile(latencies.with, 50) - percentile(latencies.without, 50),
      percentile(latencies.with, 99) - percentile(latencies.without, 99),
    ),
    latencyRow('bucket write alone (key cached)', ...percentiles(latencies.write)),
    costRow(`a client waiting for each answer (${CALLS} requests)`, sequential),
    costRow(`a burst of ${BURST} parallel requests`, burst),
    costRow(`${BURST} parallel requests refused (bucket empty)`, refused),
  ];
}
