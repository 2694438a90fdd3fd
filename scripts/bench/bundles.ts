/**
 * Each function bundled as the CDK bundles it (functionDefaults.bundling), then imported by fresh `node`
 * processes to time its cold module init and its first answer, next to an empty handler bundled the same way; the
 * API operations also answer a first real call (their bench plan's request, on the local stack's DynamoDB Local),
 * next to the empty handler's first GetItem through the same client, and next to the empty handler sending that
 * call's own DynamoDB and S3 requests again (sdk-requests.ts).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import {
  deviceEndpoints,
  handlerPath,
  type OperationName,
  operations,
  scheduledFunctions,
  streamConsumers,
} from '../../functions/registry.ts';
import { functionBuildOptions, repositoryRoot } from '../../infra/api/operation-functions.ts';
import { lambdaContext, toApiGatewayEvent, toHttpApiEvent } from '../../local/api-gateway-event.ts';
import type { LocalStack } from '../../local/stack.ts';
import { awsClientTimeouts, env as settings } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { serviceName } from '../../shared/metric-names.ts';
import { keys } from '../../shared/store/keys.ts';
import { givenUser, givenVehicle, type TestUser } from '../../test/support/builders.ts';
import { samplePosition } from '../sample-position.ts';
import { kinesisEvent } from './cost.ts';
import { operationPlans } from './operation-plans.ts';
import { callOperation, eventOf, UNREACHED_LIMIT } from './operations.ts';
import { type BenchSize, median, type Row, round } from './report.ts';
import { requestsFromJson } from './sdk-requests.ts';

/** fresh processes per function: the median and the fastest of them are shown */
const PROCESSES = { full: 5, smallest: 1 } as const;
const EMPTY = '(empty handler)';

const DYNAMODB_PACKAGES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];

/** The bench's requests module: the same-SDK handler bundles it, and a process answering a real call imports it. */
const SDK_REQUESTS = join(repositoryRoot, 'scripts', 'bench', 'sdk-requests.ts');

/**
 * An empty handler that loads `packages` at init, as a function whose bundle imports them statically does. Given an
 * item's key, it does what every function's first real call starts with (shared/store/client.ts): makes the document
 * client as the store makes it (same timeouts, endpoint, region and credentials) and gets the item, so the SDK's own
 * first-request cost (its lazily loaded parts, signing, the first connection) is in the floor too. Given a function's
 * first real answer's requests, it sends those again instead, round by round, through the same document client and an
 * S3 client made as shared/store/bucket.ts makes it: the floor of that answer, whatever our code does around them.
 */
function sameSdkHandler(packages: readonly string[]): string {
  const imports = packages.map((name, i) => `import * as sdk${i} from '${name}';`);
  const loaded = `[${packages.map((_, i) => `sdk${i}`).join(', ')}].length`;
  const [client, documents] = DYNAMODB_PACKAGES.map((name) => `sdk${packages.indexOf(name)}`);
  if (!DYNAMODB_PACKAGES.every((name) => packages.includes(name)))
    return [...imports, `export const handler = async () => ({ loaded: ${loaded} });`, ''].join('\n');
  return [
    ...imports,
    `import { requestsFromJson, sendAgain } from ${JSON.stringify(SDK_REQUESTS)};`,
    'let store;',
    'export const handler = async (event) => {',
    `  if (!event?.key && !event?.requests) return { loaded: ${loaded} };`,
    '  const local = { endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION, ' +
      "credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };",
    `  const timeouts = ${JSON.stringify(awsClientTimeouts())};`,
    `  store ??= ${documents}.DynamoDBDocumentClient.from(new ${client}.DynamoDBClient({ ...timeouts, ...local }), ` +
      '{ marshallOptions: { removeUndefinedValues: true } });',
    '  if (event.requests) {',
    '    const requests = requestsFromJson(event.requests);',
    "    const s3 = requests.some((request) => request.service === 'S3')",
    "      ? new (await import('@aws-sdk/client-s3')).S3Client({ ...timeouts, endpoint: process.env.S3_ENDPOINT, forcePathStyle: true, " +
      "region: process.env.AWS_REGION, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })",
    '      : undefined;',
    '    await sendAgain(requests, { DynamoDB: store, S3: s3 });',
    '    return { statusCode: 200 };',
    '  }',
    `  const { Item } = await store.send(new ${documents}.GetCommand({ TableName: process.env.TABLE_NAME, Key: event.key }));`,
    '  return { statusCode: Item ? 200 : 404 };',
    '};',
    '',
  ].join('\n');
}

/** The reference row of a set of SDK packages: `(empty handler + DynamoDB, lib-dynamodb)`. */
const referenceName = (packages: readonly string[]): string =>
  packages.length ? `(empty handler + ${packages.map((name) => name.replace(/^@aws-sdk\/(client-)?/, '')).join(', ')})` : EMPTY;

export const bundlesNotes = [
  "bundled with the CDK's esbuild options (infra/api/operation-functions.ts: ESM, minify, target node24, external @aws-sdk/* " +
    'and the packages imported only when needed (aws-jwt-verify), the aliases, the createRequire banner, source map as a separate ' +
    'file without the sources)',
  'the bundles are written under node_modules/.cache/ inside the repository, so their external @aws-sdk/* imports resolve from the ' +
    "repository's node_modules as the Lambda runtime provides them (NODE_PATH does not apply to ESM imports); the SDK's load time is " +
    'therefore part of init, as in Lambda',
  'SDK at init: the @aws-sdk/* packages the bundle imports statically (esbuild metafile), which load with the module; a dynamic ' +
    'import() of an external package stays one and loads on first use. Each function is set beside an empty handler that imports exactly ' +
    'those packages (its row is in the table): the floor of its cold start, whatever our code does',
  `init: the time of \`await import(bundle)\` in a fresh \`node\` process, median of ${PROCESSES.full} processes (rounds interleaved ` +
    'across functions), and the fastest of them, which other load on the machine can only slow; run as deployed: no ' +
    '--enable-source-maps (a logged error maps its own stack, shared/source-mapped-stack.ts)',
  'first answer: in the same process, right after the import, the time of the first call on an event the function answers ' +
    'without AWS: a request without api key or device token (401, through the whole chain), an empty batch for the stream ' +
    "consumers (processPositions archives even that: the bench's endpoints are a closed port on 127.0.0.1, so its S3 put fails " +
    "at once); what init leaves for later is paid here, so init + first answer (the fastest process's sum) is what a cold call " +
    "costs of the function's own, and `÷ same SDK` divides both by the same-SDK empty handler's fastest init (target: 1.2)",
  'first real answer: in another fresh process, the ' +
    "first call is a real one: the API operation's request from its operations-bench plan (scripts/bench/operation-plans.ts: " +
    "an api key, or a signed-in person's bearer token from the local OIDC provider, whose JWKS the function fetches over " +
    'HTTP as a cold container does; the data it reads), answered against the local ' +
    "stack's DynamoDB Local and S3 (the key lookup, the per-key limiter's write, the operation's own requests) with its " +
    "status in `real status`; the same-SDK handler's process makes the store's document client the same way and gets " +
    "one item (the caller's key item), so the SDK's own first-request cost is on both sides; `÷ same SDK + GetItem` " +
    "divides the function's init + first real answer by the handler's init + first GetItem; the function's DynamoDB and S3 " +
    'requests are logged (an SDK middleware added after the timed import, on both sides: scripts/bench/sdk-requests.ts), ' +
    'and another fresh process of the same-SDK handler sends those same requests again, round by round, through the same ' +
    "clients (`first real answer requests`; a write's conditions fail the second time: DynamoDB evaluates them all the same): " +
    "`÷ same SDK + same requests` is what our code adds to a cold call's own requests. processPositions' first real " +
    'answer is a stream batch of one report of a vehicle (its DynamoDB writes and its S3 archive); the device entry points ' +
    '(Kinesis) and the other consumers have none: — in those columns',
];

/**
 * Imports the bundle, then answers the event (when there is one) once; prints both times on a line of its own. Timed with
 * process.hrtime: the global `performance` would load perf_hooks before the function does, and its first use is the function's.
 */
const IMPORT_TIMER = [
  'const cpuMs = (since) => { const { user, system } = process.cpuUsage(since); return (user + system) / 1000; };',
  'const now = () => Number(process.hrtime.bigint()) / 1e6;',
  'const started = now(); const startedCpu = process.cpuUsage();',
  'const { handler } = await import(process.argv[1]);',
  'const imported = now(); const importCpu = cpuMs(startedCpu);',
  'const call = JSON.parse(process.argv[2]);',
  "let answered = Number.NaN; let answerCpu = Number.NaN; let status = ''; let requests = '[]';",
  // a real call's DynamoDB and S3 requests are logged (after the timed import, before the timed call)
  'const requestLog = call?.logRequests ? await import(call.logRequests) : undefined; const log = requestLog?.logEverySdkRequest();',
  'if (call) { const context = { ...call.context, getRemainingTimeInMillis: () => 30000 };',
  '  const callStarted = now(); const callCpu = process.cpuUsage();',
  "  const result = await Promise.resolve(handler(call.event, context)).catch(() => ({ statusCode: 'threw' }));",
  '  answered = now() - callStarted; answerCpu = cpuMs(callCpu);',
  '  if (log) requests = requestLog.requestsToJson(log.requests);',
  "  status = result?.batchItemFailures ? 'batch, ' + result.batchItemFailures.length + ' failed' : String(result?.statusCode ?? ''); }",
  "process.stdout.write('\\nBENCH ' + JSON.stringify([imported - started, answered, importCpu, answerCpu, status, requests]) + '\\n');",
  'process.exit(0);',
].join('\n');

/** The event each kind of function answers without AWS, and its context (without the function the child adds). */
function firstCallOf(name: string): string {
  const request = { method: 'GET', query: '', headers: {}, body: Buffer.alloc(0), sourceIp: '198.51.100.7' };
  const device = deviceEndpoints.find((endpoint) => endpoint.name === name);
  const event = device
    ? toHttpApiEvent({ ...request, path: '/devices/traccar', operation: name, resource: device.resources[0] as string })
    : operations.some((operation) => operation.name === name)
      ? toApiGatewayEvent({ ...request, path: `/api/${name}`, operation: name })
      : streamConsumers.some((consumer) => consumer.name === name)
        ? { Records: [] }
        : undefined;
  const { getRemainingTimeInMillis: _, ...context } = lambdaContext(name, 'bench-first-call');
  return JSON.stringify(event ? { event, context } : null);
}

const run = promisify(execFile);

/** The bundle's file and the @aws-sdk/* packages it imports statically (those its init loads), sorted. */
async function bundle(entry: string, outdir: string): Promise<{ file: string; sdkAtInit: string[] }> {
  const outfile = join(outdir, 'index.mjs');
  const { metafile } = await build({ ...functionBuildOptions(), entryPoints: [entry], outfile, metafile: true, logLevel: 'error' });
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  const sdkAtInit = imports.filter(
    (imported) => imported.external && imported.kind === 'import-statement' && imported.path.startsWith('@aws-sdk/'),
  );
  return { file: outfile, sdkAtInit: [...new Set(sdkAtInit.map((imported) => imported.path))].sort() };
}

/** A fresh process's import of a bundle and its first answer: wall-clock and CPU milliseconds (NaN: no first call). */
interface ColdStart {
  init: number;
  firstAnswer: number;
  initCpu: number;
  firstAnswerCpu: number;
  /** the first answer's HTTP status, or a batch's failed records ('threw' when the handler threw) */
  status: string;
  /** a real call's DynamoDB and S3 requests (sdk-requests.ts, as JSON) */
  requests: string;
}

/** A process's environment past the function's own: where its AWS calls go (a closed port, or the local stack) and settings. */
type Endpoints = Record<string, string>;

/** The first answers need no AWS; whatever a function calls anyway meets a closed port on the loopback and fails at once. */
const OFFLINE: Endpoints = Object.fromEntries(
  ['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'KINESIS_ENDPOINT'].map((name) => [name, 'http://127.0.0.1:9']),
);

/**
 * The local stack's table and bucket, and the settings the local stack runs its functions with (every variable
 * shared/config.ts reads, as this process holds it), with the per-key limit the operations bench uses: every call
 * pays its bucket write, as deployed, and none is refused.
 */
function onTheStack(stack: LocalStack): Endpoints {
  const configured = Object.values(settings).flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : []));
  return {
    ...OFFLINE,
    ...Object.fromEntries(configured),
    DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
    S3_ENDPOINT: stack.s3Endpoint,
    RATE_LIMIT_PER_SECOND: UNREACHED_LIMIT,
    RATE_LIMIT_BURST: UNREACHED_LIMIT,
  };
}

/** Imports the bundle in a fresh process, with the environment a function gets, and answers its first call. */
async function coldStart(file: string, firstCall: string, endpoints: Endpoints = OFFLINE): Promise<ColdStart> {
  const env = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    TABLE_NAME: 'fleet-tracking',
    BUCKET_NAME: 'fleet-tracking',
    POWERTOOLS_SERVICE_NAME: serviceName,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    // Traced, as a sampled invocation in Lambda: the segments go to a daemon address nothing listens on.
    _HANDLER: 'index.handler',
    AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    _X_AMZN_TRACE_ID: 'Root=1-6760a000-000000000000000000000001;Parent=53995c3f42cd8ad8;Sampled=1',
    ...endpoints,
  };
  const args = ['--input-type=module', '-e', IMPORT_TIMER, pathToFileURL(file).href, firstCall];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 });
  const line = stdout.split('\n').findLast((text) => text.startsWith('BENCH ')) ?? 'BENCH []';
  const printed = JSON.parse(line.slice('BENCH '.length)) as (number | string | null)[];
  const [init, firstAnswer, initCpu, firstAnswerCpu] = printed.slice(0, 4).map((value) => (typeof value === 'number' ? value : Number.NaN));
  return {
    init,
    firstAnswer,
    initCpu,
    firstAnswerCpu,
    status: String(printed[4] ?? ''),
    requests: String(printed[5] ?? '[]'),
  } as ColdStart;
}

const kilobytes = (file: string): number => round(statSync(file).size / 1024, 1);

interface Timing {
  name: string;
  file: string;
  sdkAtInit: string[];
  runs: ColdStart[];
  /** the first real call of each process (one per pass), when the function has one */
  realCalls: string[];
  realRuns: ColdStart[];
  /** the same-SDK handler sending again, in a fresh process, the requests of each of the real runs */
  sameRequestRuns: ColdStart[];
}

const timingOf = (name: string, bundled: { file: string; sdkAtInit: string[] }, realCalls: string[] = []): Timing => ({
  name,
  ...bundled,
  runs: [],
  realCalls,
  realRuns: [],
  sameRequestRuns: [],
});

/**
 * The references (an empty handler, and one per set of SDK packages a measured bundle loads at init), then the
 * functions; `realCalls` holds each function's first real calls, and `keyItem` the item the references get instead.
 */
async function bundleAll(
  dir: string,
  measured: readonly string[],
  realCalls: Map<string, string[]>,
  keyItem: string,
): Promise<{ functions: Timing[]; references: Map<string, Timing> }> {
  const functions: Timing[] = [];
  for (const name of measured) {
    functions.push(timingOf(name, await bundle(join(repositoryRoot, handlerPath(name)), join(dir, name)), realCalls.get(name)));
  }
  const references = new Map<string, Timing>();
  for (const packages of [[], ...functions.map(({ sdkAtInit }) => sdkAtInit)]) {
    const name = referenceName(packages);
    if (references.has(name)) continue;
    const entry = join(dir, `reference-${references.size}.ts`);
    writeFileSync(entry, sameSdkHandler(packages));
    const getsAnItem = DYNAMODB_PACKAGES.every((sdkPackage) => packages.includes(sdkPackage));
    const bundled = await bundle(entry, join(dir, `reference-${references.size}`));
    references.set(name, timingOf(name, bundled, getsAnItem ? functions.map(() => keyItem) : []));
  }
  return { functions, references };
}

/** One process's first real call: the event and the context the function is called with; its requests are logged. */
const firstCall = (name: string, event: unknown, i: number): string => {
  const { getRemainingTimeInMillis: _, ...context } = lambdaContext(name, `bench-real-call-${i}`);
  return JSON.stringify({ event, context, logRequests: pathToFileURL(SDK_REQUESTS).href });
};

/** A phone's report of a vehicle, as the device entry points put it on the stream, `minutesAgo` before now. */
const positionLine = (imei: string, minutesAgo: number): string =>
  JSON.stringify(samplePosition(imei, new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')));

/**
 * Each function's first real call per process: an API operation's requests from its operations-bench plan (fixtures
 * made through the local API) as the API Gateway event the deployed API sends; processPositions' a stream batch of
 * one report of a vehicle of its own (a new fix each process). And the key item of the plans' reader.
 */
async function realCallsOf(apiUrl: string, measured: readonly string[], processes: number) {
  const plans = await operationPlans(apiUrl, (name, user, request) => callOperation(apiUrl, name, user, request));
  const calls = new Map<string, string[]>();
  let reader: TestUser | undefined;
  for (const name of measured.filter((name): name is OperationName => name in plans)) {
    const plan = await plans[name](processes);
    reader ??= plan.user;
    calls.set(
      name,
      Array.from({ length: processes }, (_unused, i) => {
        const request = plan.request(i);
        return firstCall(name, eventOf(name, request.user ?? plan.user, request), i);
      }),
    );
  }
  if (measured.includes('processPositions')) {
    const vehicle = await givenVehicle(await givenUser());
    const batches = Array.from({ length: processes }, (_unused, i) => kinesisEvent([positionLine(vehicle.imei, processes - i)], i));
    calls.set(
      'processPositions',
      batches.map((batch, i) => firstCall('processPositions', batch, i)),
    );
  }
  const keyItem = reader ? firstCall(EMPTY, { key: keys.apiKey(hashApiKey(reader.key)) }, 0) : 'null';
  return { calls, keyItem };
}

const fastest = (samples: readonly number[]): number => Math.min(...samples);

/** Each run's init, and its init + first answer, in wall-clock or CPU milliseconds. */
function totals(runs: readonly ColdStart[], clock: 'wall' | 'cpu'): { init: number[]; coldCall: number[] } {
  const init = runs.map((run) => (clock === 'wall' ? run.init : run.initCpu));
  const coldCall = runs.map((run, i) => (init[i] as number) + (clock === 'wall' ? run.firstAnswer : run.firstAnswerCpu));
  return { init, coldCall };
}

/** The least of the runs' init + first answer (NaN without runs, or when one was not answered). */
const leastColdCall = (runs: readonly ColdStart[], clock: 'wall' | 'cpu'): number =>
  runs.length ? fastest(totals(runs, clock).coldCall) : Number.NaN;

/** A real answer's requests by service and command: `DynamoDB GetItem, UpdateItem; S3 PutObject` (— without one). */
function requestCounts(requests: string | undefined): string {
  const sent = requestsFromJson(requests ?? '[]');
  const counted = Map.groupBy(sent, ({ service, command }) => `${service} ${command.replace(/Command$/, '')}`);
  return [...counted].map(([request, times]) => (times.length > 1 ? `${request} ×${times.length}` : request)).join(', ') || '—';
}

function rowOf(timing: Timing, reference: Timing | undefined): Row {
  const { name, file, sdkAtInit, runs, realRuns } = timing;
  const wall = totals(runs, 'wall');
  const cpu = totals(runs, 'cpu');
  const answered = !wall.coldCall.some(Number.isNaN);
  const floor = reference ? fastest(totals(reference.runs, 'wall').init) : Number.NaN;
  const cpuFloor = reference ? fastest(totals(reference.runs, 'cpu').init) : Number.NaN;
  const ratio = (value: number, of: number) => (reference && !Number.isNaN(value) && !Number.isNaN(of) ? round(value / of, 2) : '—');
  const shown = (value: number) => (Number.isNaN(value) ? '—' : round(value, 1));
  const real = { wall: leastColdCall(realRuns, 'wall'), cpu: leastColdCall(realRuns, 'cpu') };
  const realFloor = { wall: leastColdCall(reference?.realRuns ?? [], 'wall'), cpu: leastColdCall(reference?.realRuns ?? [], 'cpu') };
  const sameRequests = { wall: leastColdCall(timing.sameRequestRuns, 'wall'), cpu: leastColdCall(timing.sameRequestRuns, 'cpu') };
  return {
    function: name,
    'bundle KB': kilobytes(file),
    'source map KB': kilobytes(`${file}.map`),
    'SDK at init': sdkAtInit.map((sdkPackage) => sdkPackage.replace(/^@aws-sdk\/(client-)?/, '')).join(', ') || '—',
    'init ms': round(median(wall.init), 1),
    'init ms (fastest)': round(fastest(wall.init), 1),
    'init CPU ms (least)': round(fastest(cpu.init), 1),
    'first answer ms': answered ? round(median(runs.map((run) => run.firstAnswer)), 1) : '—',
    'init + first answer ms (fastest)': answered ? round(fastest(wall.coldCall), 1) : '—',
    'init + first answer CPU ms (least)': answered ? round(fastest(cpu.coldCall), 1) : '—',
    'same-SDK init ms (fastest)': shown(floor),
    'same-SDK init CPU ms (least)': shown(cpuFloor),
    'init ÷ same SDK': ratio(fastest(wall.init), floor),
    'init + first answer ÷ same SDK': ratio(answered ? fastest(wall.coldCall) : Number.NaN, floor),
    'CPU: init ÷ same SDK': ratio(fastest(cpu.init), cpuFloor),
    'CPU: init + first answer ÷ same SDK': ratio(answered ? fastest(cpu.coldCall) : Number.NaN, cpuFloor),
    'real status': [...new Set(realRuns.map((run) => run.status))].join(', ') || '—',
    'init + first real answer ms (fastest)': shown(real.wall),
    'init + first real answer CPU ms (least)': shown(real.cpu),
    'same-SDK init + first GetItem CPU ms (least)': shown(reference ? realFloor.cpu : real.cpu),
    'init + first real answer ÷ same SDK + GetItem': ratio(real.wall, realFloor.wall),
    'CPU: init + first real answer ÷ same SDK + GetItem': ratio(real.cpu, realFloor.cpu),
    'first real answer requests': requestCounts(realRuns[0]?.requests),
    'same SDK, same requests: init + first answer CPU ms (least)': shown(sameRequests.cpu),
    'init + first real answer ÷ same SDK + same requests': ratio(real.wall, sameRequests.wall),
    'CPU: init + first real answer ÷ same SDK + same requests': ratio(real.cpu, sameRequests.cpu),
  };
}

export async function benchBundles(stack: LocalStack, size: BenchSize = 'full'): Promise<Row[]> {
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'fleet-bench-'));
  try {
    const functions = [...operations, ...streamConsumers, ...scheduledFunctions, ...deviceEndpoints];
    // smallest: one function of each kind that answers a first call (an api key's operation and a signed-in person's
    // among them), and their references
    const personOperation = operations.find((operation) => 'personOnly' in operation);
    const smallest = [operations[0], personOperation, deviceEndpoints[0], streamConsumers[0]];
    const measured = (size === 'full' ? functions : smallest).flatMap((declared) => (declared ? [declared.name] : []));
    const { calls, keyItem } = await realCallsOf(stack.apiUrl, measured, PROCESSES[size]);
    const timings = await bundleAll(dir, measured, calls, keyItem);
    const all = [...timings.references.values(), ...timings.functions];
    const stackEndpoints = onTheStack(stack);
    for (let pass = 0; pass < PROCESSES[size]; pass++) {
      for (const timing of all) {
        timing.runs.push(await coldStart(timing.file, firstCallOf(timing.name)));
        const realCall = timing.realCalls[pass];
        if (!realCall) continue;
        const real = await coldStart(timing.file, realCall, stackEndpoints);
        timing.realRuns.push(real);
        const reference = timings.references.get(referenceName(timing.sdkAtInit));
        if (reference && timings.functions.includes(timing)) {
          const sameRequests = firstCall(reference.name, { requests: real.requests }, pass);
          timing.sameRequestRuns.push(await coldStart(reference.file, sameRequests, stackEndpoints));
        }
      }
    }
    return [
      ...[...timings.references.values()].map((reference) => rowOf(reference, undefined)),
      ...timings.functions.map((timing) => rowOf(timing, timings.references.get(referenceName(timing.sdkAtInit)))),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
