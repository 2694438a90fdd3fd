/**
 * Every registry operation over real HTTP through the in-process API emulator, each call paired with the
 * floor: one GetItem on the same DynamoDB Local through the same client, so both see the same machine at
 * the same moment. A middleware on the shared clients counts what each call asks of DynamoDB (and S3).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { findOperation, type KeyOperationName, type OperationName, operations } from '../../functions/registry.ts';
import { accessOf } from '../../shared/contracts/operation.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import type { TestUser } from '../../test/support/builders.ts';
import { type BenchRequest, type CallApi, operationPlans, type Params } from './operation-plans.ts';
import { type BenchSize, median, percentile, type Row, round, spread } from './report.ts';

/** calls per operation: full for the figures; smallest, once each, so a test run proves every plan still runs */
const callsBySize = {
  full: { warmUp: 20, calls: Number(process.env.BENCH_CALLS ?? 200) },
  smallest: { warmUp: 0, calls: 1 },
} as const;
const { warmUp: WARM_UP_CALLS, calls: CALLS } = callsBySize.full;
/** The design's budget for reads: sequential DynamoDB round trips after the key lookup. */
const READ_ROUND_TRIP_BUDGET = 2;
/**
 * A rate and a bucket no caller empties: every call pays its bucket write, as in production, and none is refused (the
 * bucket holds a second of the rate: requests the plans make ten at a time, judged a few ms apart, all fit).
 */
export const UNREACHED_LIMIT = String(1_000_000);
/** The key cache as deployed (60 s): a container serving a client finds its key in memory; 0 measures a cold container. */
const KEY_CACHE_SECONDS = process.env.BENCH_KEY_CACHE_SECONDS ?? '60';

export const operationsNotes = [
  `${CALLS} sequential calls per operation after ${WARM_UP_CALLS} warm-up calls; the floor is one GetItem of the caller's key item, ` +
    `timed right after each call`,
  `the API key cache holds a key ${KEY_CACHE_SECONDS} s (BENCH_KEY_CACHE_SECONDS; deployed: 60 s, so a warm container looks its ` +
    'callers up once a minute; 0: every call pays its key lookup, as on a cold container)',
  'the per-key limit is on, its bucket too large for a sequential caller to empty: every call pays its bucket write, none is refused',
  'round trips: the longest chain of DynamoDB requests each started after the previous one answered ' +
    '(requests running together count once); "after the key lookup" leaves out the lookup where the call made one',
  'getLiveMap is served from its S3 cache after the first call; addRoute uses the built-in estimate provider (no network)',
];

interface CallTrace {
  dynamoRequests: number;
  /** 1 when the call looked its key up (no cached key) */
  keyLookups: number;
  roundTrips: number;
  /** the deepest round whose request has answered: a request starting now begins the next one */
  answeredRound: number;
  s3Requests: number;
}

let trace: CallTrace | undefined;

function traceClients(): void {
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      const current = trace;
      if (!current) return next(args);
      const roundTrip = current.answeredRound + 1;
      current.dynamoRequests++;
      if (String((args.input as { Key?: { pk?: unknown } }).Key?.pk).startsWith(keys.apiKey('').pk)) current.keyLookups++;
      current.roundTrips = Math.max(current.roundTrips, roundTrip);
      try {
        return await next(args);
      } finally {
        current.answeredRound = Math.max(current.answeredRound, roundTrip);
      }
    },
    { step: 'initialize', name: 'benchDynamoTrace' },
  );
  s3().middlewareStack.add(
    (next) => async (args) => {
      if (trace) trace.s3Requests++;
      return next(args);
    },
    { step: 'initialize', name: 'benchS3Trace' },
  );
}

const search = (params: Params = {}): string =>
  new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)])).toString();

/** One call as an integrator makes it (key in X-Api-Key); anything but a success stops the benchmark. */
export async function callOperation(apiUrl: string, name: OperationName, user: TestUser, { params, query, json }: BenchRequest) {
  const method = findOperation(name)?.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Api-Key': user.key };
  const url = `${apiUrl}/api/${name}?${search(method === 'GET' ? params : query)}`;
  let body: string | undefined;
  if (method === 'POST') {
    headers['Content-Type'] = json === undefined ? 'application/x-www-form-urlencoded' : 'application/json';
    body = json === undefined ? search(params) : JSON.stringify(json);
  }
  const response = await fetch(url, { method, headers, body });
  const raw = Buffer.from(await response.arrayBuffer());
  if (!response.headers.get('content-type')?.startsWith('application/json')) {
    if (response.status !== 200) throw new Error(`${name} answered HTTP ${response.status}`);
    return {};
  }
  const envelope = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  if (envelope.result !== 'success') throw new Error(`${name} answered HTTP ${response.status}: ${String(envelope.error_msg)}`);
  return envelope;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function benchOperations(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const { warmUp: WARM_UP_CALLS, calls: CALLS } = callsBySize[size];
  process.env.API_KEY_CACHE_SECONDS = KEY_CACHE_SECONDS;
  process.env.RATE_LIMIT_PER_SECOND = UNREACHED_LIMIT;
  process.env.RATE_LIMIT_BURST = UNREACHED_LIMIT;
  traceClients();
  const callApi: CallApi = (name, user, request) => callOperation(apiUrl, name, user, request);
  const plans = await operationPlans(callApi);
  const rows: Row[] = [];
  // A signed-in person's operations (api keys, device tokens) are the console's, a few a day: benched by the console's bench.
  for (const operation of operations.filter((declared) => !('personOnly' in declared))) {
    const plan = await plans[operation.name as KeyOperationName](WARM_UP_CALLS + CALLS);
    // a create capped per user names its caller per call (addWebhook, deleteWebhook)
    const call = (i: number) => {
      const request = plan.request(i);
      return { user: request.user ?? plan.user, request };
    };
    const keyItemOf = (user: TestUser) => new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(user.key)) });
    for (let i = 0; i < WARM_UP_CALLS; i++) {
      const { user, request } = call(i);
      await callApi(operation.name, user, request);
    }
    const latencies: number[] = [];
    const floors: number[] = [];
    const traces: CallTrace[] = [];
    for (let i = WARM_UP_CALLS; i < WARM_UP_CALLS + CALLS; i++) {
      const { user, request } = call(i);
      trace = { dynamoRequests: 0, keyLookups: 0, roundTrips: 0, answeredRound: 0, s3Requests: 0 };
      traces.push(trace);
      latencies.push(await timed(() => callApi(operation.name, user, request)));
      trace = undefined;
      floors.push(await timed(() => dynamo().send(keyItemOf(user))));
    }
    const roundTrips = traces.map((traced) => traced.roundTrips);
    const afterKey = Math.max(...traces.map((traced) => traced.roundTrips - traced.keyLookups));
    rows.push({
      operation: operation.name,
      access: accessOf(operation),
      'p50 ms': round(percentile(latencies, 50)),
      'p99 ms': round(percentile(latencies, 99)),
      'floor p50 ms': round(percentile(floors, 50)),
      'floor p99 ms': round(percentile(floors, 99)),
      'p50 ÷ floor p50': round(percentile(latencies, 50) / percentile(floors, 50), 1),
      'p50 ÷ floor per round trip': round(percentile(latencies, 50) / percentile(floors, 50) / median(roundTrips), 2),
      'DynamoDB requests/call': spread(traces.map((traced) => traced.dynamoRequests)),
      'key lookups/call': spread(traces.map((traced) => traced.keyLookups)),
      'round trips/call': spread(roundTrips),
      'S3 requests/call': spread(traces.map((traced) => traced.s3Requests)),
      'reads ≤ 2 round trips after key lookup':
        accessOf(operation) === 'write' ? 'n/a' : afterKey <= READ_ROUND_TRIP_BUDGET ? `yes (${afterKey})` : `NO (${afterKey})`,
    });
  }
  return rows;
}
