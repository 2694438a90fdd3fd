/**
 * The HTTP device entry points (docs/devices.md): one function per registry entry, on resources of their own
 * beside /api/ (`/devices/osmand/{token}`, `/devices/traccar[/{token}]`), with ANY method so the function answers a
 * wrong one in the envelope. They check their own device token (no api key), get items (tokens, IMEI claims, links),
 * write only their token and IMEI buckets (`RATE#TOKEN#`, `RATE#IMEI#` items), and may only PutRecords on the
 * positions stream.
 */
import { join } from 'node:path';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, LambdaIntegration } from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { deviceEndpoints, handlerPath } from '../functions/registry.ts';
import { env } from '../shared/config.ts';
import { bundlingOf, functionDefaults, functionEnvironment, onLeadingKeys, repositoryRoot } from './operation-functions.ts';

/**
 * API Gateway's throttle for the /devices/ methods, set apart from the API's stage throttle: a fleet's devices
 * flooding cannot take the integrators' share, nor the other way round. Above a token's or an IMEI's bucket in the
 * chain (docs/devices.md, "Security"), it protects the account's Lambda concurrency.
 */
export const deviceGatewayThrottle = { rateLimit: 1000, burstLimit: 2000 } as const;

/** The partition keys of the device buckets (shared/store/keys.ts: deviceTokenBucket, imeiBucket): all a device function writes. */
const DEVICE_BUCKET_KEYS = ['RATE#TOKEN#*', 'RATE#IMEI#*'];

export interface DeviceEndpointsProps {
  api: apigateway.RestApi;
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
  stream: kinesis.IStream;
}

export class DeviceEndpoints extends Construct {
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, { api, table, bucket, stream }: DeviceEndpointsProps) {
    super(scope, id);
    for (const endpoint of deviceEndpoints) {
      const fn = new NodejsFunction(this, endpoint.name, {
        ...functionDefaults,
        // One small record a request: less memory than the API's functions (docs/cost.md).
        memorySize: 256,
        bundling: bundlingOf(endpoint.name),
        entry: join(repositoryRoot, handlerPath(endpoint.name)),
        description: `${endpoint.methods.join('|')} ${endpoint.resources.join(', ')}: ${endpoint.summary}`,
        logGroup: new logs.LogGroup(this, `${endpoint.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
        environment: { ...functionEnvironment(table, bucket), [env.positionsStreamName]: stream.streamName },
      });
      // The token and IMEI lookups are gets (shared/store/device-tokens.ts): no Query or Scan on the shared table.
      table.grant(fn, 'dynamodb:GetItem', 'dynamodb:BatchGetItem');
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: onLeadingKeys(...DEVICE_BUCKET_KEYS),
        }),
      );
      stream.grant(fn, 'kinesis:PutRecords');
      const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      for (const path of endpoint.resources) resourceAt(api.root, path).addMethod('ANY', integration);
      this.functions.set(endpoint.name, fn);
    }
    throttleApart(
      api,
      deviceEndpoints.flatMap((endpoint) => endpoint.resources),
    );
  }
}

/** Method settings of their own on the stage for each device path (every method): the stage's default does not apply to them. */
function throttleApart(api: apigateway.RestApi, paths: readonly string[]): void {
  const stage = api.deploymentStage.node.defaultChild as CfnStage;
  const existing = (stage.methodSettings ?? []) as CfnStage.MethodSettingProperty[];
  // A method's settings replace the stage's: its logging and metrics are carried over, only the throttle differs.
  const stageWide = existing.find((setting) => setting.resourcePath === '/*') ?? {};
  stage.methodSettings = [
    ...existing,
    ...paths.map((path) => ({
      ...stageWide,
      // CloudFormation's form of a path: each slash as ~1
      resourcePath: `/${path
        .split('/')
        .filter((part) => part !== '')
        .join('~1')}`.replace(/^\//, '/~1'),
      httpMethod: '*',
      throttlingRateLimit: deviceGatewayThrottle.rateLimit,
      throttlingBurstLimit: deviceGatewayThrottle.burstLimit,
    })),
  ];
}

/** The resource at a path, made part by part where missing (both Traccar paths share /devices/traccar). */
function resourceAt(root: apigateway.IResource, path: string): apigateway.IResource {
  return path
    .split('/')
    .filter((part) => part !== '')
    .reduce((parent, part) => parent.getResource(part) ?? parent.addResource(part), root);
}
