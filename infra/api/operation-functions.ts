import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { LambdaIntegration } from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type NodejsFunctionProps, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import { handlerPath, type Operation, operations } from '../../functions/registry.ts';
import { env, limits, rateLimitDefaults } from '../../shared/config.ts';
import { accessOf, READ_TABLE_ACTIONS } from '../../shared/contracts/operation.ts';
import { metricsNamespace, serviceName } from '../../shared/metric-names.ts';
import { GAZETTEER_FILES } from '../../shared/providers/gazetteer.ts';
import { ATLAS_FILES } from '../../shared/providers/offline-map.ts';
import { RENDERER_FILES } from '../../shared/providers/svg-png.ts';
import { keys } from '../../shared/store/keys.ts';
import { configureProvider } from './providers.ts';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface OperationFunctionsProps {
  api: apigateway.RestApi;
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
  /** the registry entries this construct makes functions for (its stack's share of the operations) */
  operations: readonly Operation[];
}

/**
 * Packages that only some calls import (a dynamic import, at first need), left out of the bundle and copied beside
 * it (`lazyPackageFiles`): a cold start reads, compiles and source-maps the whole bundle, so code a call never runs
 * still costs there. aws-jwt-verify (21 KB of every API function) checks a signed-in person's bearer token; an api
 * key's calls never load it.
 */
const importedWhenNeeded = ['aws-jwt-verify'];

/** What of those packages an ES module import needs at run time, copied beside the bundle under node_modules/. */
const lazyPackageFiles = ['aws-jwt-verify/package.json', 'aws-jwt-verify/dist/esm'];

/**
 * Imports esbuild resolves to another module (relative paths: from the repository root, where the CDK runs esbuild).
 * The SDK's error classifier (shared/store/aws-errors.ts) from its own module: the package's entry re-exports it
 * from @smithy/core's retry index, whose top-level `retryMiddleware = bindRetryMiddleware(…)` esbuild must keep, and
 * with it 11 KB of a second copy of the SDK's retry, HTTP and date code in every bundle.
 */
export const bundleAliases: Readonly<Record<string, string>> = {
  '@smithy/service-error-classification':
    './node_modules/@smithy/core/dist-es/submodules/retry/service-error-classification/service-error-classification.js',
};

/** Shared defaults of every operation's Lambda, set once. */
export const functionDefaults = {
  runtime: lambda.Runtime.NODEJS_24_X,
  architecture: lambda.Architecture.ARM_64,
  memorySize: 512,
  timeout: Duration.seconds(limits.functionTimeoutSeconds),
  tracing: lambda.Tracing.ACTIVE,
  handler: 'handler',
  bundling: {
    format: OutputFormat.ESM,
    target: 'node24',
    minify: true,
    // beside the bundle, read at a container's first logged error (shared/source-mapped-stack.ts): the mappings are all it needs
    sourceMap: true,
    sourcesContent: false,
    // The AWS SDK v3 ships with the runtime; bundling it would only grow cold starts.
    externalModules: ['@aws-sdk/*', ...importedWhenNeeded],
    mainFields: ['module', 'main'],
    esbuildArgs: { '--alias': Object.entries(bundleAliases).map(([imported, resolved]) => `${imported}=${resolved}`) },
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
} satisfies Partial<NodejsFunctionProps>;

/**
 * functionDefaults.bundling as esbuild's own options, run from the repository root as the CDK runs it: what the bundles
 * bench and the bundling tests build a function with, so what they measure and check is what `cdk deploy` ships.
 */
export function functionBuildOptions(): BuildOptions {
  const { bundling } = functionDefaults;
  return {
    bundle: true,
    platform: 'node',
    format: bundling.format === OutputFormat.ESM ? 'esm' : 'cjs',
    target: bundling.target,
    minify: bundling.minify,
    sourcemap: bundling.sourceMap,
    sourcesContent: bundling.sourcesContent,
    external: bundling.externalModules,
    mainFields: bundling.mainFields,
    alias: bundleAliases,
    absWorkingDir: repositoryRoot,
    banner: { js: bundling.banner },
  };
}

/**
 * Package files and folders a function reads at run time rather than imports, so esbuild leaves them
 * out: copied beside the bundle under node_modules/, where `createRequire(...).resolve` finds them as it
 * does in the repository, and cold init never pays for them. getLiveMap: resvg's WebAssembly and the fonts,
 * Natural Earth and the gazetteer's towns; addRoute and processPositions: the gazetteer, which names places
 * outside every zone that have no address.
 */
export const runtimeFiles: Readonly<Record<string, readonly string[]>> = {
  getLiveMap: [...RENDERER_FILES, ...ATLAS_FILES, ...GAZETTEER_FILES],
  addRoute: GAZETTEER_FILES,
  processPositions: GAZETTEER_FILES,
  checkQuietVehicles: GAZETTEER_FILES,
};

/**
 * The package files one function's bundle needs beside it: its run-time files, and for an API operation (shared/operation.ts:
 * a bearer token is verified there) the packages left out of every bundle.
 */
export function filesBesideBundle(name: string): readonly string[] {
  const isOperation = operations.some((operation) => operation.name === name);
  return [...(runtimeFiles[name] ?? []), ...(isOperation ? lazyPackageFiles : [])];
}

/** The bundling options of one function: the shared ones, plus copying its run-time files after esbuild. */
export function bundlingOf(name: string): NodejsFunctionProps['bundling'] {
  const files = filesBesideBundle(name);
  if (!files.length) return functionDefaults.bundling;
  return {
    ...functionDefaults.bundling,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir: string, outputDir: string) =>
        files.map(
          (file) =>
            `mkdir -p "${outputDir}/node_modules/${dirname(file)}" && cp -R "${inputDir}/node_modules/${file}" ` +
            `"${outputDir}/node_modules/${file}"`,
        ),
    },
  };
}

/** A statement's condition: only items whose partition key matches one of `patterns` (keys the store builds). */
export const onLeadingKeys = (...patterns: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } });

/**
 * The chain's own calls, apart from the handler's: the per-key rate limiter's one write (shared/store/rate-limits.ts)
 * on rate-bucket items only, so a read function writes nothing else; a key's last use on key items; and an idempotent
 * create's claim, replay, completion and release (shared/store/idempotency.ts) on idempotency records only.
 */
function grantChainItems(table: dynamodb.ITableV2, fn: NodejsFunction, operation: Operation): void {
  const statement = (actions: string[], pattern: string) =>
    new iam.PolicyStatement({ actions, resources: [table.tableArn], conditions: onLeadingKeys(pattern) });
  fn.addToRolePolicy(statement(['dynamodb:UpdateItem'], keys.rateBucket('*').pk));
  // A key's last use, recorded by the credentials step at most hourly (shared/store/api-keys.ts); a person's operation takes no key.
  if (!operation.personOnly) fn.addToRolePolicy(statement(['dynamodb:UpdateItem'], keys.apiKey('*').pk));
  if (operation.idempotencyKey)
    fn.addToRolePolicy(
      statement(['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], keys.idempotencyRecordPattern),
    );
}

/**
 * The table actions an operation's handler calls (its declaration's `tableActions`) and the api key lookup's GetItem,
 * on the table and its indexes. A GET that declares a write is refused here.
 */
function grantTableActions(table: dynamodb.ITableV2, fn: NodejsFunction, operation: Operation): void {
  const writes = operation.tableActions.filter((action) => !READ_TABLE_ACTIONS.includes(action));
  if (accessOf(operation) === 'read' && writes.length > 0) throw new Error(`${operation.name} is a GET and may not ${writes.join(', ')}`);
  table.grant(fn, ...[...new Set(['GetItem', ...operation.tableActions])].map((action) => `dynamodb:${action}`));
}

/** Every function's environment, built once: the settings' names come from shared/config.ts. */
export function functionEnvironment(table: dynamodb.ITableV2, bucket: s3.IBucket): Record<string, string> {
  return {
    [env.tableName]: table.tableName,
    [env.bucketName]: bucket.bucketName,
    POWERTOOLS_SERVICE_NAME: serviceName,
    POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    // The event holds the api key (query string, header) or the device token (path): never logged.
    POWERTOOLS_LOGGER_LOG_EVENT: 'false',
    // No NODE_OPTIONS=--enable-source-maps: it parses the map at every cold start; a logged error maps its own stack
    // at a container's first error (shared/source-mapped-stack.ts).
  };
}

/**
 * CDK context: each api key's token bucket, its sustained rate (`-c rateLimitPerSecond=200`) and its size
 * (`-c rateLimitBurst=400`); every function takes from the same bucket.
 */
const RATE_LIMIT_CONTEXT = { perSecond: 'rateLimitPerSecond', burst: 'rateLimitBurst' } as const;

/** One function and one `/api/<name>` route (ANY method, so the function can answer a wrong one) per registry entry. */
export class OperationFunctions extends Construct {
  readonly functions = new Map<string, NodejsFunction>();

  private readonly rateLimit: Record<keyof typeof RATE_LIMIT_CONTEXT, number>;

  constructor(scope: Construct, id: string, { api, table, bucket, operations }: OperationFunctionsProps) {
    super(scope, id);
    this.rateLimit = { perSecond: this.wholeNumber('perSecond'), burst: this.wholeNumber('burst') };
    // The resources and methods are the RestApi's own (its stack), so its deployment changes with them.
    const apiResource = api.root.getResource('api') ?? api.root.addResource('api');
    for (const operation of operations) {
      const fn = this.operationFunction(operation, table, bucket);
      apiResource.addResource(operation.name).addMethod('ANY', new LambdaIntegration(fn, { allowTestInvoke: false }));
      this.functions.set(operation.name, fn);
    }
  }

  private wholeNumber(setting: keyof typeof RATE_LIMIT_CONTEXT): number {
    const value = Number(this.node.tryGetContext(RATE_LIMIT_CONTEXT[setting]) ?? rateLimitDefaults[setting]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${RATE_LIMIT_CONTEXT[setting]} must be a whole number of requests`);
    return value;
  }

  /** The function of a registry entry (every entry has one). */
  function(name: string): NodejsFunction {
    const fn = this.functions.get(name);
    if (!fn) throw new Error(`no function for operation ${name}`);
    return fn;
  }

  private operationFunction(operation: Operation, table: dynamodb.ITableV2, bucket: s3.IBucket): NodejsFunction {
    const logGroup = new logs.LogGroup(this, `${operation.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH });
    const fn = new NodejsFunction(this, operation.name, {
      ...functionDefaults,
      bundling: bundlingOf(operation.name),
      entry: join(repositoryRoot, handlerPath(operation.name)),
      description: `${operation.method} /api/${operation.name}: ${operation.summary}`,
      logGroup,
      environment: {
        ...functionEnvironment(table, bucket),
        [env.rateLimitPerSecond]: String(this.rateLimit.perSecond),
        [env.rateLimitBurst]: String(this.rateLimit.burst),
      },
    });
    grantTableActions(table, fn, operation);
    grantChainItems(table, fn, operation);
    // Cached objects are read and written whole, never listed or deleted (lifecycle rules expire them).
    if (operation.bucket === 'read-write')
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [bucket.arnForObjects('*')] }));
    configureProvider(this, fn, operation);
    return fn;
  }
}
