/**
 * The functions' bundles as the CDK makes them (esbuild with functionDefaults.bundling, run from the repository root):
 * whatever a bundle imports at run time is there in Lambda, and what is left out of every bundle stays out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEndpoints, handlerPath, operations, scheduledFunctions, streamConsumers } from '../../functions/registry.ts';
import { filesBesideBundle, functionBuildOptions, repositoryRoot } from '../../infra/api/operation-functions.ts';
import { classifyAwsError } from '../../shared/store/aws-errors.ts';

const functionNames = [...operations, ...streamConsumers, ...scheduledFunctions, ...deviceEndpoints].map(({ name }) => name);

/** Each function's bundle metafile output, by function name (one esbuild run, nothing written). */
async function bundleEveryFunction(): Promise<Map<string, Metafile['outputs'][string]>> {
  const { metafile } = await build({
    ...functionBuildOptions(),
    entryPoints: Object.fromEntries(functionNames.map((name) => [name, join(repositoryRoot, handlerPath(name))])),
    outdir: 'bundles',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return new Map(
    Object.values(metafile.outputs).flatMap((output) => (output.entryPoint ? [[nameOf(output.entryPoint), output] as const] : [])),
  );
}

/** functions/getVehicles/handler.ts → getVehicles */
const nameOf = (entryPoint: string): string => entryPoint.split('/').at(-2) ?? entryPoint;

/** `aws-jwt-verify/jwk` → aws-jwt-verify; `@scope/name/sub` → @scope/name */
const packageOf = (path: string): string =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

const isNodeBuiltin = (path: string): boolean => path.startsWith('node:') || builtinModules.includes(path);

describe('the functions bundled as the CDK bundles them', () => {
  let bundles: Map<string, Metafile['outputs'][string]>;

  beforeAll(async () => {
    bundles = await bundleEveryFunction();
  }, 120_000);

  it('bundles every function', () => {
    expect([...bundles.keys()].sort()).toEqual([...functionNames].sort());
  });

  it('imports at run time only Node, the runtime SDK and packages copied beside the bundle', () => {
    // Act
    const missing = [...bundles].flatMap(([name, output]) =>
      output.imports
        .filter((imported) => imported.external && !isNodeBuiltin(imported.path) && !imported.path.startsWith('@aws-sdk/'))
        .map((imported) => packageOf(imported.path))
        .filter((needed) => !filesBesideBundle(name).some((file) => file.startsWith(`${needed}/`)))
        .map((needed) => `${name} imports ${needed}`),
    );
    // Assess
    expect(missing).toEqual([]);
  });

  it('requires node:http rather than importing it: its module facade would load undici at every cold start', () => {
    // Act
    const imported = [...bundles].flatMap(([name, output]) =>
      output.imports.filter((entry) => ['node:http', 'http'].includes(entry.path) && entry.kind === 'import-statement').map(() => name),
    );
    // Assess
    expect(imported).toEqual([]);
  });

  it('leaves aws-jwt-verify out of the API functions: a bearer token imports it, copied beside the bundle', () => {
    // Arrange
    const getVehicles = bundles.get('getVehicles');
    // Assess
    expect(Object.keys(getVehicles?.inputs ?? {}).filter((input) => input.includes('aws-jwt-verify'))).toEqual([]);
    expect(getVehicles?.imports).toContainEqual(
      expect.objectContaining({ path: 'aws-jwt-verify', kind: 'dynamic-import', external: true }),
    );
    expect(filesBesideBundle('getVehicles')).toEqual(expect.arrayContaining(['aws-jwt-verify/package.json', 'aws-jwt-verify/dist/esm']));
  });

  it("carries the SDK's error classifier without @smithy/core's retry middleware", () => {
    // Arrange
    const inputs = Object.keys(bundles.get('getVehicles')?.inputs ?? {});
    // Assess
    expect(inputs.some((input) => input.endsWith('service-error-classification/service-error-classification.js'))).toBe(true);
    expect(inputs.filter((input) => input.includes('@smithy/core/dist-es/submodules/retry/middleware-retry'))).toEqual([]);
  });
});

describe("the SDK's error classifier, bundled through its alias", () => {
  const named = (name: string, fields: Record<string, unknown> = {}): Error => Object.assign(new Error(name), { name, ...fields });
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bundled-classifier-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('classifies AWS failures as the unbundled module does', async () => {
    // Prepare
    const outfile = join(dir, 'aws-errors.mjs');
    await build({
      ...functionBuildOptions(),
      entryPoints: [join(repositoryRoot, 'shared/store/aws-errors.ts')],
      outfile,
      logLevel: 'silent',
    });
    const bundled = (await import(pathToFileURL(outfile).href)) as typeof import('../../shared/store/aws-errors.ts');
    const failures = [
      named('ProvisionedThroughputExceededException', { $metadata: { httpStatusCode: 400 } }),
      named('TooMany', { $metadata: { httpStatusCode: 429 } }),
      named('TimeoutError', { code: 'ETIMEDOUT' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      named('Unavailable', { $metadata: { httpStatusCode: 503 } }),
      new Error('wrapped', { cause: named('TimeoutError') }),
      named('InternalServerError', { $fault: 'server', $metadata: { httpStatusCode: 500 } }),
      named('ValidationException', { $fault: 'client', $metadata: { httpStatusCode: 400 } }),
    ];
    // Act
    const answers = failures.map((failure) => bundled.classifyAwsError(failure));
    // Assess
    expect(answers).toEqual(failures.map((failure) => classifyAwsError(failure)));
    expect(new Set(answers)).toEqual(new Set(['throttled', 'unavailable', 'server fault', 'lasting']));
  });
});

describe('an error logged by a bundled function, run without --enable-source-maps', () => {
  const fixture = join(repositoryRoot, 'test/fixtures/logs-an-error.ts');
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bundled-error-'));
  const outfile = join(dir, 'index.mjs');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    await build({ ...functionBuildOptions(), entryPoints: [fixture], outfile, logLevel: 'silent' });
  }, 60_000);

  /** The error of the line the bundle logs (Powertools writes an error to stderr), run as Lambda runs it: no source-map flag. */
  function loggedError(): { location: string; stack: string; cause: { stack: string } } {
    const env = { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'INFO' };
    const { stdout, stderr } = spawnSync(process.execPath, [outfile], { env, encoding: 'utf8' });
    const line = `${stdout}\n${stderr}`.split('\n').find((text) => text.includes('internal error')) ?? '{}';
    return JSON.parse(line).error;
  }

  const lineOf = (text: string): number =>
    readFileSync(fixture, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1;
  const thrownAt = (text: string): string => `${fixture}:${lineOf(text)}`;

  it('shows its stack, its location and its cause in the TypeScript sources, functions by their names', () => {
    // Act
    const error = loggedError();
    // Assess
    expect(error.location).toBe(thrownAt("throw new Error('the failing step failed'"));
    expect(error.stack.split('\n')[1]).toContain(`at failingStep (${thrownAt("throw new Error('the failing step failed'")}:`);
    expect(error.stack).toContain(`${thrownAt('  failingStep();')}:`);
    expect(error.cause.stack.split('\n')[1]).toContain(`${thrownAt("cause: new Error('its cause')")}:`);
  });

  it('shows the bundle where its source map is missing', () => {
    // Prepare
    renameSync(`${outfile}.map`, `${outfile}.map.aside`);
    try {
      // Act
      const error = loggedError();
      // Assess
      expect(error.stack.split('\n')[1]).toContain(`${pathToFileURL(outfile).href}:`);
    } finally {
      renameSync(`${outfile}.map.aside`, `${outfile}.map`);
    }
  });
});
