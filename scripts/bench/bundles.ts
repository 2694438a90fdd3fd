/**
 * Each function bundled as the CDK bundles it (functionDefaults.bundling), then imported by fresh `node`
 * processes to time its cold module init, next to an empty handler bundled the same way.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build } from 'esbuild';
import { deviceEndpoints, handlerPath, operations, scheduledFunctions, streamConsumers } from '../../functions/registry.ts';
import { functionDefaults, repositoryRoot } from '../../infra/api/operation-functions.ts';
import { lambdaContext, toApiGatewayEvent, toHttpApiEvent } from '../../local/api-gateway-event.ts';
import { serviceName } from '../../shared/metric-names.ts';
import { type BenchSize, median, type Row, round } from './report.ts';

/** fresh processes per function: the median and the fastest of them are shown */
const PROCESSES = { full: 5, smallest: 1 } as const;
const EMPTY = '(empty handler)';

/** An empty handler that loads `packages` at init, as a function whose bundle imports them statically does. */
function sameSdkHandler(packages: readonly string[]): string {
  const imports = packages.map((name, i) => `import * as sdk${i} from '${name}';`);
  return [
    ...imports,
    `export const handler = async () => ({ loaded: [${packages.map((_, i) => `sdk${i}`).join(', ')}].length });`,
    '',
  ].join('\n');
}

/** The reference row of a set of SDK packages: `(empty handler + DynamoDB, lib-dynamodb)`. */
const referenceName = (packages: readonly string[]): string =>
  packages.length ? `(empty handler + ${packages.map((name) => name.replace(/^@aws-sdk\/(client-)?/, '')).join(', ')})` : EMPTY;

export const bundlesNotes = [
  "bundled with the CDK's esbuild options (infra/api/operation-functions.ts: ESM, minify, target node24, external @aws-sdk/*, the " +
    'createRequire banner, source map as a separate file)',
  'the bundles are written under node_modules/.cache/ inside the repository, so their external @aws-sdk/* imports resolve from the ' +
    "repository's node_modules as the Lambda runtime provides them (NODE_PATH does not apply to ESM imports); the SDK's load time is " +
    'therefore part of init, as in Lambda',
  'SDK at init: the @aws-sdk/* packages the bundle imports statically (esbuild metafile), which load with the module; a dynamic ' +
    'import() of an external package stays one and loads on first use. Each function is set beside an empty handler that imports exactly ' +
    'those packages (its row is in the table): the floor of its cold start, whatever our code does',
  `init: the time of \`await import(bundle)\` in a fresh \`node\` process, median of ${PROCESSES.full} processes (rounds interleaved ` +
    'across functions), and the fastest of them, which other load on the machine can only slow; the deployed functions run with ' +
    'NODE_OPTIONS=--enable-source-maps',
  'first answer: in the same process, right after the import, the time of the first call on an event the function answers ' +
    'without AWS: a request without api key or device token (401, through the whole chain), an empty batch for the stream ' +
    "consumers (processPositions archives even that: the bench's endpoints are a closed port on 127.0.0.1, so its S3 put fails " +
    "at once); what init leaves for later is paid here, so init + first answer (the fastest process's sum) is what a cold call " +
    "costs of the function's own, and `÷ same SDK` divides both by the same-SDK empty handler's fastest init (target: 1.2)",
];

/** Imports the bundle, then answers the event (when there is one) once; prints both times on a line of its own. */
const IMPORT_TIMER = [
  'const cpuMs = (since) => { const { user, system } = process.cpuUsage(since); return (user + system) / 1000; };',
  'const started = performance.now(); const startedCpu = process.cpuUsage();',
  'const { handler } = await import(process.argv[1]);',
  'const imported = performance.now(); const importCpu = cpuMs(startedCpu);',
  'const call = JSON.parse(process.argv[2]);',
  'let answered = Number.NaN; let answerCpu = Number.NaN;',
  'if (call) { const context = { ...call.context, getRemainingTimeInMillis: () => 30000 }; const callCpu = process.cpuUsage();',
  '  await Promise.resolve(handler(call.event, context)).catch(() => undefined);',
  '  answered = performance.now() - imported; answerCpu = cpuMs(callCpu); }',
  "process.stdout.write('\\nBENCH ' + JSON.stringify([imported - started, answered, importCpu, answerCpu]) + '\\n');",
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
  const { bundling } = functionDefaults;
  const outfile = join(outdir, 'index.mjs');
  const { metafile } = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: bundling.format === OutputFormat.ESM ? 'esm' : 'cjs',
    target: bundling.target,
    minify: bundling.minify,
    sourcemap: bundling.sourceMap,
    external: bundling.externalModules,
    mainFields: bundling.mainFields,
    banner: { js: bundling.banner },
    metafile: true,
    logLevel: 'error',
  });
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
}

/** Imports the bundle in a fresh process, with the environment a function gets, and answers its first call. */
async function coldStart(file: string, flags: string[], firstCall: string): Promise<ColdStart> {
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
    // The first answers need no AWS; whatever a function calls anyway (processPositions archives even an empty batch)
    // meets a closed port on the loopback and fails at once, offline, rather than looking for credentials and AWS.
    ...Object.fromEntries(['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'KINESIS_ENDPOINT'].map((name) => [name, 'http://127.0.0.1:9'])),
  };
  const args = [...flags, '--input-type=module', '-e', IMPORT_TIMER, pathToFileURL(file).href, firstCall];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 });
  const line = stdout.split('\n').findLast((text) => text.startsWith('BENCH ')) ?? 'BENCH []';
  const [init, firstAnswer, initCpu, firstAnswerCpu] = (JSON.parse(line.slice('BENCH '.length)) as (number | null)[]).map(
    (value) => value ?? Number.NaN,
  );
  return { init, firstAnswer, initCpu, firstAnswerCpu } as ColdStart;
}

const kilobytes = (file: string): number => round(statSync(file).size / 1024, 1);

interface Timing {
  name: string;
  file: string;
  sdkAtInit: string[];
  runs: ColdStart[];
  withMaps: number[];
}

/** The references (an empty handler, and one per set of SDK packages a measured bundle loads at init), then the functions. */
async function bundleAll(dir: string, measured: readonly string[]): Promise<{ functions: Timing[]; references: Map<string, Timing> }> {
  const functions: Timing[] = [];
  for (const name of measured) {
    functions.push({
      name,
      ...(await bundle(join(repositoryRoot, handlerPath(name)), join(dir, name))),
      runs: [],
      withMaps: [],
    });
  }
  const references = new Map<string, Timing>();
  for (const packages of [[], ...functions.map(({ sdkAtInit }) => sdkAtInit)]) {
    const name = referenceName(packages);
    if (references.has(name)) continue;
    const entry = join(dir, `reference-${references.size}.ts`);
    writeFileSync(entry, sameSdkHandler(packages));
    references.set(name, {
      name,
      ...(await bundle(entry, join(dir, `reference-${references.size}`))),
      runs: [],
      withMaps: [],
    });
  }
  return { functions, references };
}

const fastest = (samples: readonly number[]): number => Math.min(...samples);

/** Each run's init, and its init + first answer, in wall-clock or CPU milliseconds. */
function totals(runs: readonly ColdStart[], clock: 'wall' | 'cpu'): { init: number[]; coldCall: number[] } {
  const init = runs.map((run) => (clock === 'wall' ? run.init : run.initCpu));
  const coldCall = runs.map((run, i) => (init[i] as number) + (clock === 'wall' ? run.firstAnswer : run.firstAnswerCpu));
  return { init, coldCall };
}

function rowOf(timing: Timing, reference: Timing | undefined): Row {
  const { name, file, sdkAtInit, runs, withMaps } = timing;
  const wall = totals(runs, 'wall');
  const cpu = totals(runs, 'cpu');
  const answered = !wall.coldCall.some(Number.isNaN);
  const floor = reference ? fastest(totals(reference.runs, 'wall').init) : Number.NaN;
  const cpuFloor = reference ? fastest(totals(reference.runs, 'cpu').init) : Number.NaN;
  const ratio = (value: number, of: number) => (reference && !Number.isNaN(value) ? round(value / of, 2) : '—');
  const shown = (value: number) => (Number.isNaN(value) ? '—' : round(value, 1));
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
    'CPU: init + first answer ÷ same SDK': ratio(answered ? fastest(cpu.coldCall) : Number.NaN, cpuFloor),
    'init ms, --enable-source-maps': round(median(withMaps), 1),
  };
}

export async function benchBundles(size: BenchSize = 'full'): Promise<Row[]> {
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'fleet-bench-'));
  try {
    const functions = [...operations, ...streamConsumers, ...scheduledFunctions, ...deviceEndpoints];
    // smallest: one function of each kind that answers a first call, and their references
    const measured = size === 'full' ? functions : [operations[0], deviceEndpoints[0], streamConsumers[0]];
    const timings = await bundleAll(
      dir,
      measured.map(({ name }) => name),
    );
    const all = [...timings.references.values(), ...timings.functions];
    for (let pass = 0; pass < PROCESSES[size]; pass++) {
      for (const timing of all) {
        timing.runs.push(await coldStart(timing.file, [], firstCallOf(timing.name)));
        timing.withMaps.push((await coldStart(timing.file, ['--enable-source-maps'], 'null')).init);
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
