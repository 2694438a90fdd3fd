/**
 * The HTTP device entry points (docs/devices.md): one function per registry entry, served by an HTTP API of their own
 * (API Gateway v2, payload 2.0: $1.00 a million requests where the REST API bills $3.50, and a phone sends one a
 * position) at `/devices/osmand/{token}` and `/devices/traccar[/{token}]`, and, while phones move over, by the REST
 * API's resources of the same paths beside /api/. ANY method on both, so the function answers a wrong one in the
 * envelope. They check their own device token (no api key), get items (tokens, IMEI claims, links), write only their
 * token and IMEI buckets (`RATE#TOKEN#`, `RATE#IMEI#` items), and may only PutRecords on the positions stream.
 */
import { join } from 'node:path';
import { CfnOutput } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, LambdaIntegration } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { deviceEndpoints, handlerPath } from '../../functions/registry.ts';
import { env } from '../../shared/config.ts';
import { bundlingOf, functionDefaults, functionEnvironment, onLeadingKeys, repositoryRoot } from '../api/operation-functions.ts';
import { serviceStack } from '../service-stack.ts';

/**
 * API Gateway's throttle for the /devices/ methods, set apart from the API's stage throttle: a fleet's devices
 * flooding cannot take the integrators' share, nor the other way round. Above a token's or an IMEI's bucket in the
 * chain (docs/devices.md, "Security"), it protects the account's Lambda concurrency.
 */
export const deviceGatewayThrottle = { rateLimit: 1000, burstLimit: 2000 } as const;

/**
 * The device functions' settings: a phone's every position is a request, so what each request costs beyond its work
 * is kept out (docs/cost.md, "A phone's request"). One small record a request needs less memory than the API's
 * functions. Each request's status is in the HTTP API's access log, so an ordinary request leaves no line of its own:
 * no `request answered` line and no metrics (the endpoint's chain counts errors only: shared/devices/device-endpoint.ts),
 * and, in Lambda's JSON log format with its system log level at WARN, no START, END and REPORT lines either (Lambda
 * still publishes each invocation's Duration and Errors as metrics). The application log level stays INFO: an
 * embedded-metric line carries no level, which Lambda reads as INFO. And the function records an X-Ray trace only when
 * its caller sampled one (the REST API's stage), not Lambda's own sample of every function (the first request each
 * second and 5 % of the rest), which would cost more than the request itself at a few hundred phones.
 */
export const deviceFunctionSettings = {
  memoryMb: 256,
  systemLogLevel: lambda.SystemLogLevel.WARN,
  tracing: lambda.Tracing.PASS_THROUGH,
} as const;

/** The partition keys of the device buckets (shared/store/keys.ts: deviceTokenBucket, imeiBucket): all a device function writes. */
const DEVICE_BUCKET_KEYS = ['RATE#TOKEN#*', 'RATE#IMEI#*'];

export interface DeviceEndpointsProps {
  api: apigateway.RestApi;
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
  stream: kinesis.IStream;
}

/**
 * What the HTTP API's access log keeps: the route template (`ANY /devices/osmand/{token}`), never the requested path
 * or query string, which carry the device token.
 */
const httpApiAccessLogFormat = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export class DeviceEndpoints extends Construct {
  readonly functions = new Map<string, NodejsFunction>();
  /** the devices' own API (API Gateway v2); the REST API's /devices/ resources stay while phones move over */
  readonly httpApi: HttpApi;

  constructor(scope: Construct, id: string, { api, table, bucket, stream }: DeviceEndpointsProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Fleet tracking device entry points: OsmAnd (phones) and Traccar forwarding',
      createDefaultStage: false,
    });
    new HttpStage(this, 'HttpStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      // The same ceiling as the REST API's /devices/ methods: devices flooding cannot take the account's Lambda concurrency.
      throttle: deviceGatewayThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(new logs.LogGroup(this, 'HttpApiAccessLogs', { retention: logs.RetentionDays.ONE_MONTH })),
        format: httpApiAccessLogFormat,
      },
    });
    for (const endpoint of deviceEndpoints) {
      const fn = new NodejsFunction(this, endpoint.name, {
        ...functionDefaults,
        memorySize: deviceFunctionSettings.memoryMb,
        tracing: deviceFunctionSettings.tracing,
        loggingFormat: lambda.LoggingFormat.JSON,
        systemLogLevelV2: deviceFunctionSettings.systemLogLevel,
        applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
        bundling: bundlingOf(endpoint.name),
        entry: join(repositoryRoot, handlerPath(endpoint.name)),
        description: `${endpoint.methods.join('|')} ${endpoint.resources.join(', ')}: ${endpoint.summary}`,
        logGroup: new logs.LogGroup(this, `${endpoint.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
        environment: {
          ...functionEnvironment(table, bucket),
          [env.positionsStreamName]: stream.streamName,
        },
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
      const httpIntegration = new HttpLambdaIntegration(`${endpoint.name}Http`, fn, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      });
      for (const path of endpoint.resources) this.httpApi.addRoutes({ path, methods: [HttpMethod.ANY], integration: httpIntegration });
      this.functions.set(endpoint.name, fn);
    }
    throttleApart(
      api,
      deviceEndpoints.flatMap((endpoint) => endpoint.resources),
    );
    new CfnOutput(serviceStack(scope), 'DevicesHttpUrl', {
      value: `${this.httpApi.apiEndpoint}/devices/`,
      description: 'OsmAnd: {DevicesHttpUrl}osmand/<token>; Traccar: {DevicesHttpUrl}traccar (the HTTP API, $1.00 a million requests)',
    });
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
