import { CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { type Operation, operations } from '../functions/registry.ts';
import { env } from '../shared/config.ts';
import { accessOf } from '../shared/contracts/operation.ts';
import { takesCursor } from '../shared/contracts/paging.ts';
import { serviceName } from '../shared/metric-names.ts';
import { openApiDocument } from '../shared/openapi.ts';
import { tableDefinition } from '../shared/store/table-definition.ts';
import { ApiDocsSite } from './api/api-docs.ts';
import { ApiDocumentation, documentationVersion } from './api/api-documentation.ts';
import { ConsoleSite, type SignInSettings } from './api/console-site.ts';
import { shareCursorKey } from './api/cursor-key.ts';
import { envelopeGatewayResponses } from './api/gateway-responses.ts';
import { OperationFunctions } from './api/operation-functions.ts';
import { Monitoring } from './monitoring/monitoring.ts';
import { acknowledgeNagFindings } from './nag-acknowledgements.ts';
import { DeviceEndpoints } from './positions/device-endpoints.ts';
import { PositionsPipeline } from './positions/positions-pipeline.ts';
import { QuietVehicles } from './positions/quiet-vehicles.ts';
import { TeltonikaService } from './positions/teltonika-service.ts';
import { tableBilling, tableCapacityOf } from './table-capacity.ts';
import { WebhookDelivery } from './webhooks/webhook-delivery.ts';

/** API Gateway → one Lambda per registry operation → one DynamoDB table and one S3 bucket. */
export class FleetTrackingStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    const tableCapacity = tableCapacityOf(this);
    const table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: dynamodb.AttributeType.STRING },
      billing: tableBilling(tableCapacity),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      dynamoStream: dynamodb.StreamViewType[tableDefinition.stream],
      globalSecondaryIndexes: tableDefinition.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType[index.projection],
      })),
    });

    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
    });
    NagSuppressions.addResourceSuppressions(accessLogs, [
      { id: 'AwsSolutions-S1', reason: 'This is the access-log bucket; logging it to itself would recurse.' },
    ]);

    const bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        // Rendered maps and directions are caches: cheap to make again.
        { id: 'expire-livemaps', prefix: 'livemaps/', expiration: Duration.days(7) },
        { id: 'expire-directions', prefix: 'directions/', expiration: Duration.days(90) },
        {
          id: 'archive-positions',
          prefix: 'positions/',
          transitions: [{ storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(30) }],
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    const apiDocument = openApiDocument(operations);
    const api = new apigateway.RestApi(this, 'Api', {
      restApiName: serviceName,
      description: 'Fleet tracking REST service: one /api/<operation> resource per operation',
      // Integrators send Accept: application/json even when asking for the map's PNG, and API Gateway turns a
      // base64 body into binary only when the Accept type is a binary media type: so every type is one.
      // Request bodies then arrive base64-encoded, which the parse middleware decodes.
      binaryMediaTypes: ['*/*'],
      cloudWatchRole: true,
      deployOptions: {
        stageName: API_STAGE,
        // Secrets stay out of traces and logs (docs/operations.md, "What the logs and traces keep"): API Gateway's X-Ray
        // segment records the whole request URL, query string (api_key) and path (device token) included, so the stage
        // is not traced (the functions still are); execution logs keep errors only, never the request or its body.
        tracingEnabled: false,
        metricsEnabled: true,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new apigateway.LogGroupLogDestination(
          new logs.LogGroup(this, 'ApiAccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        ),
        // The standard fields name the resource template ($context.resourcePath: /devices/osmand/{token}), never the
        // requested path or query string.
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        // The whole API's ceiling, which protects the account's Lambda concurrency; tenants are kept from starving each
        // other by the per-api-key limit in the chain (docs/operations.md, "Scaling").
        throttlingRateLimit: 500,
        throttlingBurstLimit: 1000,
        documentationVersion: documentationVersion(apiDocument),
      },
    });
    envelopeGatewayResponses(api);

    // The split along the seams (docs/decisions.md, "Stacks"): this stack keeps the data, the API with its routes and
    // documentation and the outputs; each nested stack holds the functions and resources of one part. New constructs go
    // to the nested stack of their part (docs/adding-an-operation.md); test/infra/quotas.test.ts keeps each under 80 %.
    const operationStacks = {
      read: new NestedStack(this, 'ReadOperations', { description: "Fleet tracking: the read operations' functions" }),
      write: new NestedStack(this, 'WriteOperations', { description: "Fleet tracking: the write operations' functions" }),
    };
    const operationFunctions = new Map<string, NodejsFunction>();
    for (const [access, stack] of Object.entries(operationStacks)) {
      const share = operations.filter((operation) => accessOf(operation) === access);
      for (const [name, fn] of new OperationFunctions(stack, 'Operations', { api, table, bucket, operations: share }).functions)
        operationFunctions.set(name, fn);
    }
    const functionOf = (name: string): NodejsFunction => operationFunctions.get(name) as NodejsFunction;
    const consoleSite = new ConsoleSite(this, 'Console', {
      api,
      // The name, not the stage's reference: the distribution must not depend on the deployment (and every function).
      stageName: API_STAGE,
      accessLogs,
      signIn: signInSettings(this),
      mapStyle: this.node.tryGetContext('consoleMapStyle'),
      freeBasemap: String(this.node.tryGetContext('consoleFreeBasemap')) === 'true',
    });
    // Every operation verifies a bearer token against the console's issuer (shared/sign-in/access-tokens.ts).
    for (const fn of operationFunctions.values()) {
      fn.addEnvironment(env.oidcIssuer, consoleSite.issuer);
      fn.addEnvironment(env.oidcClientId, consoleSite.clientId);
      for (const [name, value] of Object.entries(signInExtras(this))) fn.addEnvironment(name, value);
    }
    shareCursorKey(
      this,
      operations.filter(takesCursor).map(({ name }) => functionOf(name)),
    );
    new ApiDocumentation(this, 'ApiDocumentation', { api, document: apiDocument });
    const docs = new ApiDocsSite(this, 'ApiDocs', { api, document: apiDocument });
    const positions = new NestedStack(this, 'Positions', {
      description: 'Fleet tracking: the positions pipeline and the device entry points (HTTP and Teltonika)',
    });
    const pipeline = new PositionsPipeline(positions, 'Pipeline', { table, bucket });
    const quietVehicles = new QuietVehicles(positions, 'QuietVehicles', { table, bucket });
    const teltonika = new TeltonikaService(positions, 'Teltonika', { stream: pipeline.stream, table });
    const devices = new DeviceEndpoints(positions, 'Devices', { api, table, bucket, stream: pipeline.stream });
    const webhooksStack = new NestedStack(this, 'Webhooks', {
      description: "Fleet tracking: webhook delivery, the table's stream to the router, the deliveries queue and the sender",
    });
    const webhooks = new WebhookDelivery(webhooksStack, 'Delivery', { table, bucket });
    // Operations that queue deliveries themselves (redeliverEvents): the retries queue's URL and SendMessage on it,
    // nothing more; a redelivery never waits in front of other users' first attempts (docs/decisions.md).
    for (const { name } of (operations as readonly Operation[]).filter((operation) => operation.queuesDeliveries)) {
      functionOf(name).addEnvironment(env.webhookRetryQueueUrl, webhooks.retries.queueUrl);
      functionOf(name).addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [webhooks.retries.queueArn] }));
    }
    const monitoring = new NestedStack(this, 'Monitoring', { description: 'Fleet tracking: alarms, their topic and the dashboard' });
    new Monitoring(monitoring, 'Monitoring', {
      api,
      operationFunctions: operations.map((operation) => ({ operation, fn: functionOf(operation.name) })),
      docsFunction: docs.function,
      deviceFunctions: [...devices.functions.values()],
      pipeline,
      quietCheck: quietVehicles.function,
      teltonika,
      table,
      tableCapacity,
      webhooks,
    });
    // After the nested stacks: their findings are acknowledged with the same reasons.
    acknowledgeNagFindings(this);

    new CfnOutput(this, 'ApiUrl', { value: `${api.url}api/`, description: 'Base URL: {ApiUrl}<operation>' });
    new CfnOutput(this, 'DevicesUrl', {
      value: `${api.url}devices/`,
      description: 'OsmAnd: {DevicesUrl}osmand/<token>; Traccar: {DevicesUrl}traccar',
    });
    new CfnOutput(this, 'ApiDocsUrl', { value: `${api.url}api/docs`, description: 'The interactive API reference' });
    new CfnOutput(this, 'ConsoleUrl', { value: consoleSite.url, description: 'The console: sign in with an account of the user pool' });
    new CfnOutput(this, 'UserPoolId', {
      value: consoleSite.userPool.userPoolId,
      description: 'npm run admin -- user create --user-pool <id>',
    });
    new CfnOutput(this, 'ConsoleClientId', { value: consoleSite.client.userPoolClientId });
    new CfnOutput(this, 'SignInUrl', { value: consoleSite.domain.baseUrl(), description: "Cognito's managed login" });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
  }
}

/** The API's one stage: its URLs' first segment. */
const API_STAGE = 'v1';

/** `-c oidcIssuer=… -c oidcClientId=…`: another OIDC issuer than the stack's Cognito pool (docs/console.md, "Settings"). */
function signInSettings(stack: Stack): SignInSettings | undefined {
  const issuer = stack.node.tryGetContext('oidcIssuer');
  if (!issuer) return undefined;
  const clientId = stack.node.tryGetContext('oidcClientId');
  if (!clientId) throw new Error("-c oidcIssuer needs -c oidcClientId (the console's client at that issuer)");
  return { issuer, clientId };
}

/** The audience and JWKS of an issuer other than Cognito, for the functions. */
function signInExtras(stack: Stack): Record<string, string> {
  const extras: Record<string, string> = {};
  const audience = stack.node.tryGetContext('oidcAudience');
  const jwksUri = stack.node.tryGetContext('oidcJwksUri');
  if (audience) extras[env.oidcAudience] = audience;
  if (jwksUri) extras[env.oidcJwksUri] = jwksUri;
  return extras;
}
