/**
 * Every registry operation over real HTTP through the in-process API emulator, each call paired with the
 * floor: one GetItem on the same DynamoDB Local through the same client, so both see the same machine at
 * the same moment. A middleware on the shared clients counts what each call asks of DynamoDB (and S3).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { findOperation, type OperationName, operations } from '../../functions/registry.ts';
import { accessOf } from '../../shared/contracts/operation.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import type { TestUser } from '../../test/support/builders.ts';
import { type BenchRequest, type CallApi, operationPlans, type Params } from './operation-plans.ts';
import { type BenchSize, percentile, type Row, round, spread } from './report.ts';

/** calls per operation: full for the figures; smallest, once each, so a test run proves every plan still runs */
const callsBySize = {
  full: { warmUp: 20, calls: Number(process.env.BENCH_CALLS ?? 200) },
  smallest: { warmUp: 0, calls: 1 },
} as const;
const { warmUp: WARM_UP_CALLS, calls: CALLS } = callsBySize.full;
/** The design's budget for reads: sequential DynamoDB round trips after the key lookup. */
const READ_ROUND_TRIP_BUDGET = 2;

export const operationsNotes = [
  `${CALLS} sequential calls per operation after ${WARM_UP_CALLS} warm-up calls; the floor is one GetItem of the caller's key item, ` +
    `timed right after each call`,
  'the API key cache is off (API_KEY_CACHE_SECONDS=0), so every call pays its key lookup, as on a cold container or after the 60 s cache',
  'round trips: the longest chain of DynamoDB requests each started after the previous one answered ' +
    '(requests running together count once); the key lookup is the first',
  'getLiveMap is served from its S3 cache after the first call; addRoute uses the built-in estimate provider (no network)',
];

interface CallTrace {
  dynamoRequests: number;
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
  process.env.API_KEY_CACHE_SECONDS = '0';
  traceClients();
  const callApi: CallApi = (name, user, request) => callOperation(apiUrl, name, user, request);
  const plans = await operationPlans(callApi);
  const rows: Row[] = [];
  for (const operation of operations) {
    const { user, request } = await plans[operation.name](WARM_UP_CALLS + CALLS);
    const keyItem = new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(user.key)) });
    for (let i = 0; i < WARM_UP_CALLS; i++) await callApi(operation.name, user, request(i));
    const latencies: number[] = [];
    const floors: number[] = [];
    const traces: CallTrace[] = [];
    for (let i = WARM_UP_CALLS; i < WARM_UP_CALLS + CALLS; i++) {
      trace = { dynamoRequests: 0, roundTrips: 0, answeredRound: 0, s3Requests: 0 };
      traces.push(trace);
      latencies.push(await timed(() => callApi(operation.name, user, request(i))));
      trace = undefined;
      floors.push(await timed(() => dynamo().send(keyItem)));
    }
    const roundTrips = traces.map((call) => call.roundTrips);
    const afterKey = Math.max(...roundTrips) - 1;
    rows.push({
      operation: operation.name,
      access: accessOf(operation),
      'p50 ms': round(percentile(latencies, 50)),
      'p99 ms': round(percentile(latencies, 99)),
      'floor p50 ms': round(percentile(floors, 50)),
      'floor p99 ms': round(percentile(floors, 99)),
      'p50 ÷ floor p50': round(percentile(latencies, 50) / percentile(floors, 50), 1),
      'DynamoDB requests/call': spread(traces.map((call) => call.dynamoRequests)),
      'round trips/call (incl. key)': spread(roundTrips),
      'S3 requests/call': spread(traces.map((call) => call.s3Requests)),
      'reads ≤ 2 round trips after key lookup':
        accessOf(operation) === 'write' ? 'n/a' : afterKey <= READ_ROUND_TRIP_BUDGET ? `yes (${afterKey})` : `NO (${afterKey})`,
    });
  }
  return rows;
}
