import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { LambdaIntegration } from 'aws-cdk-lib/aws-apigateway';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DOCS_ASSETS } from '../../shared/api-docs.ts';
import type { OpenApiDocument } from '../../shared/openapi.ts';
import { functionDefaults, repositoryRoot } from './operation-functions.ts';

export interface ApiDocsSiteProps {
  api: apigateway.RestApi;
  document: OpenApiDocument;
}

/** The files the docs function reads next to its bundle: the document (written to `documentDir`) and Swagger UI's. */
export function docsBundleFiles(documentDir: string): string[] {
  const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return [join(documentDir, 'openapi.json'), ...Object.keys(DOCS_ASSETS).map((name) => join(swaggerUi, name))];
}

/**
 * GET /api/docs, its assets and /api/openapi.json from one small function: the same page and document as
 * `npm start` serves. These routes are not operations (no key, no envelope), so they are not in the registry.
 */
export class ApiDocsSite extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, { api, document }: ApiDocsSiteProps) {
    super(scope, id);
    // named by the document, so the many syntheses of one document (a test run's) share one folder instead of leaving one each
    const documentJson = JSON.stringify(document);
    const documentDir = join(tmpdir(), `fleet-openapi-${createHash('sha256').update(documentJson).digest('hex').slice(0, 16)}`);
    mkdirSync(documentDir, { recursive: true });
    // written whole under another name first: another process synthesizing the same document may be reading it
    const partial = join(documentDir, `openapi.json.${process.pid}`);
    writeFileSync(partial, documentJson);
    renameSync(partial, join(documentDir, 'openapi.json'));
    this.function = new NodejsFunction(this, 'Function', {
      ...functionDefaults,
      memorySize: 256,
      entry: join(repositoryRoot, 'infra/api/api-docs-function.ts'),
      description: 'GET /api/docs and /api/openapi.json: the API reference page and its OpenAPI document',
      logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH }),
      bundling: {
        ...functionDefaults.bundling,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_inputDir: string, outputDir: string) => [`cp ${docsBundleFiles(documentDir).join(' ')} ${outputDir}/`],
        },
      },
    });
    const integration = new LambdaIntegration(this.function, { allowTestInvoke: false });
    const apiResource = api.root.getResource('api') ?? api.root.addResource('api');
    apiResource.addResource('openapi.json').addMethod('GET', integration);
    const docs = apiResource.addResource('docs');
    docs.addMethod('GET', integration);
    docs.addResource('{asset}').addMethod('GET', integration);
  }
}
