/**
 * Every registry operation measured three ways, each call beside the floor (one GetItem of the caller's key on the
 * same DynamoDB Local through the same client, so all see the same machine at the same moment):
 * - over real HTTP through the in-process API emulator, as an integrator calls it (the emulator's HTTP server and
 *   event building, and the local IAM check on every AWS call, are the local stack's, not the service's);
 * - the handler invoked directly with the API Gateway event the emulator would build: what the deployed function
 *   does (the middy chain, parsing, the key cache and the limiter, the handler, the envelope and gzip), without the
 *   local stack's HTTP hop and IAM check (its SDK calls run as no function's role, as the tests' builders do);
 * - the same DynamoDB and S3 requests the HTTP call made, sent again directly through the SDK, round by round (requests
 *   that ran together sent together): what the call's own requests cost, whatever they are (a transaction, a Query
 *   of many items, getLiveMap's cached picture), so the handler's figure over it is what the service adds on top.
 * A middleware on the shared clients counts what each call asks of DynamoDB (and S3) and keeps its requests; Node's
 * HTTP client channels show a webhook's POST (testWebhook's), which is kept and sent again the same way.
 */
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { findOperation, handlerPath, type OperationName, operations } from '../../functions/registry.ts';
import { lambdaContext, toApiGatewayEvent } from '../../local/api-gateway-event.ts';
import { accessOf } from '../../shared/contracts/operation.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { gzipAnswerBody } from '../../shared/middleware/answer-encoding.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import type { TestUser } from '../../test/support/builders.ts';
import { type BenchCaller, type BenchRequest, type CallApi, operationPlans, type Params } from './operation-plans.ts';
import { type BenchSize, median, percentile, type Row, round, spread } from './report.ts';
import { documentClientMark, logged, loggedStart, type RequestLog, type SentPost, type SentRequest, sendAgain } from './sdk-requests.ts';

/** calls per operation: full for the figures; smallest, once each, so a test run proves every plan still runs */
const callsBySize = {
  full: { warmUp: 20, calls: Number(process.env.BENCH_CALLS ?? 200) },
  smallest: { warmUp: 0, calls: 1 },
} as const;
const { warmUp: WARM_UP_CALLS, calls: CALLS } = callsBySize.full;
/** The design's budget for reads: sequential DynamoDB round trips after the key lookup. */
const READ_ROUND_TRIP_BUDGET = 2;
/** The design's aim (issue 39): a call's p50 within this many floors per round trip, or of its own requests sent directly. */
const TARGET = { read: 1.2, write: 1.3 } as const;
/**
 * A rate and a bucket no caller empties: every call pays its bucket write, as in production, and none is refused (the
 * bucket holds a second of the rate: requests the plans make ten at a time, judged a few ms apart, all fit).
 */
export const UNREACHED_LIMIT = String(1_000_000);
/** BENCH_OPERATIONS=getRoute,addRoute measures those only (a profile of a few); every operation otherwise. */
const ONLY = process.env.BENCH_OPERATIONS?.split(',').map((name) => name.trim());
/** The key cache as deployed (60 s): a container serving a client finds its key in memory; 0 measures a cold container. */
const KEY_CACHE_SECONDS = process.env.BENCH_KEY_CACHE_SECONDS ?? '60';

export const operationsNotes = [
  `${CALLS} sequential calls per operation after ${WARM_UP_CALLS} warm-up calls; each HTTP call is followed by the floor (one GetItem ` +
    "of the caller's key item), then a direct call of the handler with the next prepared request and the HTTP call's DynamoDB " +
    'requests sent again through the SDK, each of the two first every other call',
  'HTTP: through the API emulator (its HTTP server, the API Gateway event, the local IAM check of every AWS call: the local ' +
    "stack's share); handler: the function's handler called in the bench's process with the API Gateway event, no HTTP, no " +
    "IAM check (the deployed service's share); SDK: the same DynamoDB requests, round by round, through the same client, " +
    "their answers made plain values as the document client made them for the service (a write's conditions fail the " +
    "second time: DynamoDB evaluates them all the same; but the per-key bucket's item is deleted first, untimed, so its " +
    "write writes again, as the call's did; getLiveMap's S3 read of its cached picture is " +
    "sent again too, and testWebhook's signed POST to its receiver, through node:http as the service sends it)",
  'testWebhook posts to a receiver on 127.0.0.1 that answers 204 at once',
  `target: p50 ÷ (floor × round trips), or the handler over the same requests through the SDK where those are slower than ` +
    `a GetItem by nature (a transaction, a Query of many items): reads ${TARGET.read}, writes ${TARGET.write} (issue 39)`,
  "service CPU ms/call over SDK: the p50 of the handler's CPU time (process.cpuUsage) less that of its requests sent " +
    'again: what the service adds in work, which other processes on the cores do not inflate as they do wall time',
  "answer JSON + gzip ms: JSON.stringify of the last answer's value, and gzip as the service compresses it when it went " +
    'gzipped, best of 5: work any handler does past its requests unless it stores its answers ready-made; so (SDK + it) ÷ ' +
    'SDK is the least handler ÷ SDK such a handler can show',
  `the API key cache holds a key ${KEY_CACHE_SECONDS} s (BENCH_KEY_CACHE_SECONDS; deployed: 60 s, so a warm container looks its ` +
    'callers up once a minute; 0: every call pays its key lookup, as on a cold container)',
  'the per-key limit is on, its bucket too large for a sequential caller to empty: every call pays its bucket write, none is refused',
  'round trips: the longest chain of DynamoDB requests each started after the previous one answered ' +
    '(requests running together count once); "after the key lookup" leaves out the lookup where the call made one',
  'getLiveMap is served from its S3 cache after the first call; addRoute uses the built-in estimate provider (no network)',
];

/** A call's DynamoDB, S3 and webhook requests (`requests`, by round over all: those of a round ran together) and its key lookups. */
interface CallTrace extends RequestLog {
  /** its DynamoDB requests alone, by their own rounds: once the call has answered, the deepest is its round trips */
  dynamoLog: RequestLog;
  /** 1 when the call looked its key up (no cached key) */
  keyLookups: number;
}

const newTrace = (): CallTrace => ({ requests: [], answeredRound: 0, dynamoLog: { requests: [], answeredRound: 0 }, keyLookups: 0 });
/** DynamoDB's alone, as the read budget counts them */
const roundTripsOf = (traced: CallTrace): number => traced.dynamoLog.answeredRound;
const requestsTo =
  (service: string) =>
  (traced: CallTrace): number =>
    traced.requests.filter((request) => request.service === service).length;

let trace: CallTrace | undefined;

function traceClients(): void {
  // At the build step, as the local IAM check: the document client has marshalled the input, which the replay sends as is.
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const current = trace;
      if (!current) return next(args);
      // the key's read (the use recorded once an hour is an update of the same item, and no lookup)
      const keyItem = String((args.input as { Key?: { pk?: { S?: unknown } } }).Key?.pk?.S).startsWith(keys.apiKey('').pk);
      if (keyItem && context.commandName === 'GetItemCommand') current.keyLookups++;
      const sent: Omit<SentRequest, 'round'> = {
        service: 'DynamoDB',
        command: String(context.commandName),
        input: args.input as object,
        ...documentClientMark(context),
      };
      return logged(current.dynamoLog, sent, () => logged(current, sent, () => next(args)));
    },
    { step: 'build', name: 'benchDynamoTrace' },
  );
  s3().middlewareStack.add(
    (next, context) => async (args) => {
      const current = trace;
      if (!current) return next(args);
      return logged(current, { service: 'S3', command: String(context.commandName), input: args.input as object }, () => next(args));
    },
    { step: 'initialize', name: 'benchS3Trace' },
  );
  traceWebhookPosts();
}

/** A webhook's POST (testWebhook's own request, signed: it has a webhook-id), seen on Node's HTTP client channels. */
function traceWebhookPosts(): void {
  const answers = new WeakMap<ClientRequest, () => void>();
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    const current = trace;
    if (!current || request.getHeader('webhook-id') === undefined) return;
    const headers = Object.fromEntries(Object.entries(request.getHeaders()).map(([name, value]) => [name, String(value)]));
    const post: SentPost = {
      url: `${request.protocol}//${headers.host}${request.path}`,
      headers,
      bodyBytes: Number(headers['content-length'] ?? 0),
    };
    answers.set(request, loggedStart(current, { service: 'HTTP', command: 'POST', input: post }));
  });
  subscribe('http.client.response.finish', (message) => {
    const { request } = message as { request: ClientRequest };
    answers.get(request)?.();
  });
}

/** The document client is a DynamoDB client: a marshalled input goes out again as the service's went. */
const table = (): DynamoDBClient => dynamo() as unknown as DynamoDBClient;

const search = (params: Params = {}): string =>
  new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)])).toString();

interface HttpRequestParts {
  method: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The request an integrator sends for one call (key in X-Api-Key), or the console for a signed-in person (a Bearer token). */
function httpRequestOf(name: OperationName, caller: BenchCaller, { params, query, json }: BenchRequest): HttpRequestParts {
  const method = findOperation(name)?.method ?? 'GET';
  const credential: Record<string, string> =
    caller.token === undefined ? { 'X-Api-Key': caller.key } : { Authorization: `Bearer ${caller.token}` };
  const headers: Record<string, string> = { Accept: 'application/json', ...credential };
  let body: string | undefined;
  if (method === 'POST') {
    headers['Content-Type'] = json === undefined ? 'application/x-www-form-urlencoded' : 'application/json';
    body = json === undefined ? search(params) : JSON.stringify(json);
  }
  return { method, query: search(method === 'GET' ? params : query), headers, body };
}

/** An answer's envelope; anything but a success stops the benchmark. */
function successOf(name: OperationName, status: number, contentType: string | undefined, text: () => string) {
  if (!contentType?.startsWith('application/json')) {
    if (status !== 200) throw new Error(`${name} answered HTTP ${status}`);
    return {};
  }
  const envelope = JSON.parse(text()) as Record<string, unknown>;
  if (envelope.result !== 'success') throw new Error(`${name} answered HTTP ${status}: ${String(envelope.error_msg)}`);
  return envelope;
}

/** One call as an integrator makes it, over HTTP; anything but a success stops the benchmark. */
export async function callOperation(apiUrl: string, name: OperationName, user: BenchCaller, request: BenchRequest) {
  const { method, query, headers, body } = httpRequestOf(name, user, request);
  const response = await fetch(`${apiUrl}/api/${name}?${query}`, { method, headers, body });
  const raw = Buffer.from(await response.arrayBuffer());
  return successOf(name, response.status, response.headers.get('content-type') ?? undefined, () => raw.toString('utf8'));
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const handlers = new Map<string, Promise<Handler>>();

/** The same module the emulator runs (same URL): one container's key cache, clients and bucket. */
const handlerOf = (name: OperationName): Promise<Handler> => {
  let loaded = handlers.get(name);
  if (!loaded) {
    loaded = import(new URL(`../../${handlerPath(name)}`, import.meta.url).href).then((module) => module.handler as Handler);
    handlers.set(name, loaded);
  }
  return loaded;
};

/** The API Gateway event of the call, with the headers fetch sends (lower-cased, as Node's server hands them on). */
export function eventOf(name: OperationName, user: BenchCaller, request: BenchRequest): APIGatewayProxyEvent {
  const { method, query, headers, body } = httpRequestOf(name, user, request);
  const sent = { host: '127.0.0.1', 'accept-encoding': 'gzip, deflate', 'user-agent': 'node', ...headers };
  return toApiGatewayEvent({
    method,
    path: `/api/${name}`,
    operation: name,
    query,
    headers: Object.fromEntries(Object.entries(sent).map(([header, value]) => [header.toLowerCase(), value])),
    body: Buffer.from(body ?? '', 'utf8'),
    sourceIp: '127.0.0.1',
  });
}

const isGzipped = (result: APIGatewayProxyResult): boolean => result.headers?.['Content-Encoding'] === 'gzip';

function answerText(result: APIGatewayProxyResult): string {
  const bytes = Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  return (isGzipped(result) ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The handler's result checked as callOperation checks an HTTP answer. */
function checkResult(name: OperationName, result: APIGatewayProxyResult): void {
  successOf(name, result.statusCode, result.headers?.['Content-Type'] as string | undefined, () => answerText(result));
}

/**
 * What any handler spends on an answer past its requests, unless it stores the answer ready-made: writing the answer's
 * value as JSON and, when it went gzipped, compressing that as the service does. Best of 5, in ms; none for an answer
 * that is not JSON (getLiveMap's picture, read ready-made).
 */
function answerWritingMs(result: APIGatewayProxyResult): number {
  if (!String(result.headers?.['Content-Type'] ?? '').startsWith('application/json')) return 0;
  const value: unknown = JSON.parse(answerText(result));
  const write = () => {
    const json = JSON.stringify(value);
    if (isGzipped(result)) gzipAnswerBody(json);
  };
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    write();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Wall-clock ms, and the process's CPU ms (user and system) meanwhile: what a call costs whoever else wants the cores. */
async function timedWithCpu(run: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const ms = await timed(run);
  const { user, system } = process.cpuUsage(cpu);
  return { ms, cpuMs: (user + system) / 1000 };
}

/** A per-key bucket's key in a request as sent (marshalled), or undefined for any other request. */
function bucketKeyOf({ service, command, input }: SentRequest): { pk: string; sk: string } | undefined {
  const key = (input as { Key?: { pk?: { S?: string }; sk?: { S?: string } } }).Key;
  const [pk, sk] = [key?.pk?.S, key?.sk?.S];
  const bucket = keys.rateBucket('');
  return service === 'DynamoDB' && command === 'UpdateItemCommand' && pk?.startsWith(bucket.pk) && sk === bucket.sk
    ? { pk, sk }
    : undefined;
}

/**
 * The per-key bucket's write, sent again as it was, would fail its condition (the call moved the TAT on) and write
 * nothing, which DynamoDB Local answers sooner than a write: beside a GetItem, p50 1.03 ms against 1.09 for one that
 * writes. The bucket's item is deleted first, untimed, so the write sent again writes, as the call's did.
 */
async function bucketsWritableAgain(requests: readonly SentRequest[]): Promise<void> {
  const buckets = requests.flatMap((request) => bucketKeyOf(request) ?? []);
  await Promise.all(buckets.map((Key) => dynamo().send(new DeleteCommand({ TableName: tableName(), Key }))));
}

const ratio = (value: number, to: number): number => round(value / to, 2);

export async function benchOperations(apiUrl: string, size: BenchSize = 'full'): Promise<Row[]> {
  const { warmUp: WARM_UP_CALLS, calls: CALLS } = callsBySize[size];
  process.env.API_KEY_CACHE_SECONDS = KEY_CACHE_SECONDS;
  process.env.RATE_LIMIT_PER_SECOND = UNREACHED_LIMIT;
  process.env.RATE_LIMIT_BURST = UNREACHED_LIMIT;
  traceClients();
  const callApi: CallApi = (name, user, request) => callOperation(apiUrl, name, user, request);
  const plans = await operationPlans(apiUrl, callApi);
  const rows: Row[] = [];
  const measured = operations.filter((declared) => !ONLY || ONLY.includes(declared.name));
  for (const operation of measured) {
    const name = operation.name;
    // the HTTP calls take requests 0 to WARM_UP_CALLS + CALLS - 1, the direct calls the CALLS after them
    const plan = await plans[name](WARM_UP_CALLS + 2 * CALLS);
    // a create capped per user names its caller per call (addWebhook, deleteWebhook)
    const call = (i: number) => {
      const request = plan.request(i);
      return { user: request.user ?? plan.user, request };
    };
    const keyItemOf = (user: TestUser) => new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(user.key)) });
    const handler = await handlerOf(name);
    for (let i = 0; i < WARM_UP_CALLS; i++) {
      const { user, request } = call(i);
      await callApi(name, user, request);
    }
    const latencies: number[] = [];
    const direct: number[] = [];
    const viaSdk: number[] = [];
    /** per call, the handler's CPU ms over its requests' sent again through the SDK */
    const cpuOnTop: number[] = [];
    const floors: number[] = [];
    const traces: CallTrace[] = [];
    let lastResult: APIGatewayProxyResult | undefined;
    for (let i = WARM_UP_CALLS; i < WARM_UP_CALLS + CALLS; i++) {
      const { user, request } = call(i);
      const callTrace = newTrace();
      traces.push(callTrace);
      trace = callTrace;
      latencies.push(await timed(() => callApi(name, user, request)));
      trace = undefined;
      floors.push(await timed(() => dynamo().send(keyItemOf(user))));
      const next = call(i + CALLS);
      const event = eventOf(name, next.user, next.request);
      let result: APIGatewayProxyResult | undefined;
      const callHandler = () => timedWithCpu(async () => (result = await handler(event, lambdaContext(name, randomUUID()))));
      const sendRequestsAgain = async () => {
        await bucketsWritableAgain(callTrace.requests);
        return timedWithCpu(() => sendAgain(callTrace.requests, { DynamoDB: table(), S3: s3() }));
      };
      // each first every other call: neither always meets the machine as the HTTP call and the floor left it
      const handlerFirst = i % 2 === 0;
      const first = await (handlerFirst ? callHandler() : sendRequestsAgain());
      const second = await (handlerFirst ? sendRequestsAgain() : callHandler());
      const [byHandler, bySdk] = handlerFirst ? [first, second] : [second, first];
      checkResult(name, result as APIGatewayProxyResult);
      lastResult = result;
      direct.push(byHandler.ms);
      viaSdk.push(bySdk.ms);
      cpuOnTop.push(byHandler.cpuMs - bySdk.cpuMs);
    }
    const answerWriting = answerWritingMs(lastResult as APIGatewayProxyResult);
    const roundTrips = median(traces.map(roundTripsOf));
    const afterKey = Math.max(...traces.map((traced) => roundTripsOf(traced) - traced.keyLookups));
    const [p50, floor, handlerP50, sdkP50] = [latencies, floors, direct, viaSdk].map((samples) => percentile(samples, 50)) as [
      number,
      number,
      number,
      number,
    ];
    rows.push({
      operation: name,
      access: accessOf(operation),
      'round trips/call': spread(traces.map(roundTripsOf)),
      'HTTP p50 ms': round(p50),
      'HTTP p99 ms': round(percentile(latencies, 99)),
      'handler p50 ms': round(handlerP50),
      'same requests via SDK p50 ms': round(sdkP50),
      'floor p50 ms': round(floor),
      'HTTP ÷ (floor × round trips)': ratio(p50, floor * roundTrips),
      'handler ÷ (floor × round trips)': ratio(handlerP50, floor * roundTrips),
      'handler ÷ SDK': ratio(handlerP50, sdkP50),
      'service CPU ms/call over SDK': round(percentile(cpuOnTop, 50)),
      'answer JSON + gzip ms': round(answerWriting),
      '(SDK + answer JSON + gzip) ÷ SDK': ratio(sdkP50 + answerWriting, sdkP50),
      target: TARGET[accessOf(operation)],
      'DynamoDB requests/call': spread(traces.map((traced) => traced.dynamoLog.requests.length)),
      'key lookups/call': spread(traces.map((traced) => traced.keyLookups)),
      'S3 requests/call': spread(traces.map(requestsTo('S3'))),
      'webhook POSTs/call': spread(traces.map(requestsTo('HTTP'))),
      'reads ≤ 2 round trips after key lookup':
        accessOf(operation) === 'write' ? 'n/a' : afterKey <= READ_ROUND_TRIP_BUDGET ? `yes (${afterKey})` : `NO (${afterKey})`,
    });
  }
  return rows;
}
