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
const SDK_ONLY = '(empty handler + DynamoDB SDK)';

/** Sources of the two reference handlers: nothing at all, and only the SDK clients every function loads. */
const referenceHandlers = {
  [EMPTY]: 'export const handler = async () => ({});\n',
  [SDK_ONLY]: [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
    'export const handler = async () => ({ clients: [DynamoDBClient.name, DynamoDBDocumentClient.name] });',
    '',
  ].join('\n'),
};

export const bundlesNotes = [
  "bundled with the CDK's esbuild options (infra/api/operation-functions.ts: ESM, minify, target node24, external @aws-sdk/*, the " +
    'createRequire banner, source map as a separate file)',
  'the bundles are written under node_modules/.cache/ inside the repository, so their external @aws-sdk/* imports resolve from the ' +
    "repository's node_modules as the Lambda runtime provides them (NODE_PATH does not apply to ESM imports); the SDK's load time is " +
    'therefore part of init, as in Lambda, and the `(empty handler + DynamoDB SDK)` row shows its share',
  `init: the time of \`await import(bundle)\` in a fresh \`node\` process, median of ${PROCESSES.full} processes (rounds interleaved ` +
    `across functions), and the fastest of them, which other load on the machine can only slow; the deployed functions run with ` +
    `NODE_OPTIONS=--enable-source-maps`,
  'first answer: in the same process, right after the import, the time of the first call on an event the function answers ' +
    'without AWS: a request without api key or device token (401, through the whole chain), an empty batch for the stream ' +
    "consumers; what init leaves for later is paid here, so init + first answer is what a cold call costs of the function's own",
];

/** Imports the bundle, then answers the event (when there is one) once; prints both times on a line of its own. */
const IMPORT_TIMER = [
  'const started = performance.now();',
  'const { handler } = await import(process.argv[1]);',
  'const imported = performance.now();',
  'const call = JSON.parse(process.argv[2]);',
  'let answered = Number.NaN;',
  'if (call) { const context = { ...call.context, getRemainingTimeInMillis: () => 30000 };',
  '  await Promise.resolve(handler(call.event, context)).catch(() => undefined); answered = performance.now() - imported; }',
  "process.stdout.write('\\nBENCH ' + JSON.stringify([imported - started, answered]) + '\\n');",
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

async function bundle(entry: string, outdir: string): Promise<string> {
  const { bundling } = functionDefaults;
  const outfile = join(outdir, 'index.mjs');
  await build({
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
    logLevel: 'error',
  });
  return outfile;
}

/** Milliseconds to import the bundle in a fresh process, with the environment a function gets, and to answer its first call. */
async function importTime(file: string, flags: string[], firstCall: string): Promise<{ init: number; firstAnswer: number }> {
  const env = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    TABLE_NAME: 'fleet-tracking',
    BUCKET_NAME: 'fleet-tracking',
    POWERTOOLS_SERVICE_NAME: serviceName,
    POWERTOOLS_LOG_LEVEL: 'INFO',
  };
  const args = [...flags, '--input-type=module', '-e', IMPORT_TIMER, pathToFileURL(file).href, firstCall];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 });
  const line = stdout.split('\n').findLast((text) => text.startsWith('BENCH ')) ?? 'BENCH [null, null]';
  const [init, firstAnswer] = JSON.parse(line.slice('BENCH '.length)) as [number, number | null];
  return { init, firstAnswer: firstAnswer ?? Number.NaN };
}

const kilobytes = (file: string): number => round(statSync(file).size / 1024, 1);

export async function benchBundles(size: BenchSize = 'full'): Promise<Row[]> {
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'fleet-bench-'));
  try {
    const references = Object.entries(referenceHandlers).map(([name, source], i): [string, string] => {
      const entry = join(dir, `reference-${i}.ts`);
      writeFileSync(entry, source);
      return [name, entry];
    });
    const functions = [...operations, ...streamConsumers, ...scheduledFunctions, ...deviceEndpoints];
    // smallest: the references and one function of each kind that answers a first call
    const measured = size === 'full' ? functions : [operations[0], deviceEndpoints[0], streamConsumers[0]];
    const entries: [string, string][] = [
      ...references,
      ...measured.map(({ name }): [string, string] => [name, join(repositoryRoot, handlerPath(name))]),
    ];
    const timings: { name: string; file: string; plain: number[]; withMaps: number[]; firstAnswer: number[] }[] = [];
    for (const [name, entry] of entries) {
      timings.push({ name, file: await bundle(entry, join(dir, `bundle-${timings.length}`)), plain: [], withMaps: [], firstAnswer: [] });
    }
    for (let pass = 0; pass < PROCESSES[size]; pass++) {
      for (const timing of timings) {
        const plain = await importTime(timing.file, [], firstCallOf(timing.name));
        timing.plain.push(plain.init);
        timing.firstAnswer.push(plain.firstAnswer);
        timing.withMaps.push((await importTime(timing.file, ['--enable-source-maps'], 'null')).init);
      }
    }
    const sdkInit = median(timings.find((timing) => timing.name === SDK_ONLY)?.plain ?? []);
    const sdkFastest = Math.min(...(timings.find((timing) => timing.name === SDK_ONLY)?.plain ?? []));
    return timings.map(({ name, file, plain, withMaps, firstAnswer }) => ({
      function: name,
      'bundle KB': kilobytes(file),
      'source map KB': kilobytes(`${file}.map`),
      'init ms': round(median(plain), 1),
      'init ms (fastest)': round(Math.min(...plain), 1),
      'fastest ÷ SDK-only fastest': round(Math.min(...plain) / sdkFastest, 2),
      'first answer ms': Number.isNaN(median(firstAnswer)) ? '—' : round(median(firstAnswer), 1),
      'init + first answer ms': Number.isNaN(median(firstAnswer)) ? '—' : round(median(plain) + median(firstAnswer), 1),
      'init − SDK-only ms': round(median(plain) - sdkInit, 1),
      'init ms, --enable-source-maps': round(median(withMaps), 1),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
