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
import { functionDefaults, repositoryRoot } from '../../infra/operation-functions.ts';
import { serviceName } from '../../shared/metric-names.ts';
import { median, type Row, round } from './report.ts';

const PROCESSES = 5;
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
  "bundled with the CDK's esbuild options (infra/operation-functions.ts: ESM, minify, target node24, external @aws-sdk/*, the " +
    'createRequire banner, source map as a separate file)',
  'the bundles are written under node_modules/.cache/ inside the repository, so their external @aws-sdk/* imports resolve from the ' +
    "repository's node_modules as the Lambda runtime provides them (NODE_PATH does not apply to ESM imports); the SDK's load time is " +
    'therefore part of init, as in Lambda, and the `(empty handler + DynamoDB SDK)` row shows its share',
  `init: the time of \`await import(bundle)\` in a fresh \`node\` process, median of ${PROCESSES} processes (rounds interleaved ` +
    `across functions), and the fastest of them, which other load on the machine can only slow; the deployed functions run with ` +
    `NODE_OPTIONS=--enable-source-maps`,
];

const IMPORT_TIMER =
  'const started = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - started)); ' +
  'process.exit(0);';

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

/** Milliseconds to import the bundle in a fresh process, with the environment a function gets. */
async function importTime(file: string, flags: string[]): Promise<number> {
  const env = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    TABLE_NAME: 'fleet-tracking',
    BUCKET_NAME: 'fleet-tracking',
    POWERTOOLS_SERVICE_NAME: serviceName,
    POWERTOOLS_LOG_LEVEL: 'INFO',
  };
  const { stdout } = await run(process.execPath, [...flags, '--input-type=module', '-e', IMPORT_TIMER, pathToFileURL(file).href], { env });
  return Number(stdout);
}

const kilobytes = (file: string): number => round(statSync(file).size / 1024, 1);

export async function benchBundles(): Promise<Row[]> {
  const cache = join(repositoryRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'fleet-bench-'));
  try {
    const references = Object.entries(referenceHandlers).map(([name, source], i): [string, string] => {
      const entry = join(dir, `reference-${i}.ts`);
      writeFileSync(entry, source);
      return [name, entry];
    });
    const entries: [string, string][] = [
      ...references,
      ...[...operations, ...streamConsumers, ...scheduledFunctions, ...deviceEndpoints].map(({ name }): [string, string] => [
        name,
        join(repositoryRoot, handlerPath(name)),
      ]),
    ];
    const timings: { name: string; file: string; plain: number[]; withMaps: number[] }[] = [];
    for (const [name, entry] of entries) {
      timings.push({ name, file: await bundle(entry, join(dir, `bundle-${timings.length}`)), plain: [], withMaps: [] });
    }
    for (let pass = 0; pass < PROCESSES; pass++) {
      for (const timing of timings) {
        timing.plain.push(await importTime(timing.file, []));
        timing.withMaps.push(await importTime(timing.file, ['--enable-source-maps']));
      }
    }
    const emptyInit = median(timings.find((timing) => timing.name === EMPTY)?.plain ?? []);
    return timings.map(({ name, file, plain, withMaps }) => ({
      function: name,
      'bundle KB': kilobytes(file),
      'source map KB': kilobytes(`${file}.map`),
      'init ms': round(median(plain), 1),
      'init ms (fastest)': round(Math.min(...plain), 1),
      'init − empty ms': round(median(plain) - emptyInit, 1),
      'init ms, --enable-source-maps': round(median(withMaps), 1),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
