import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceEndpoints, findOperation, type Operation, operations } from '../../functions/registry.ts';
import { gatewayAnswerBody, gatewayAnswers } from '../../infra/api/gateway-answers.ts';
import { FleetTrackingStack } from '../../infra/fleet-tracking-stack.ts';
import { deviceGatewayThrottle } from '../../infra/positions/device-endpoints.ts';
import {
  TELTONIKA_ALLOWED_CIDRS_CONTEXT,
  TELTONIKA_CONTEXT,
  TELTONIKA_TLS_CERTIFICATE_CONTEXT,
  TeltonikaService,
  teltonikaSettings,
} from '../../infra/positions/teltonika-service.ts';
import { env, limits } from '../../shared/config.ts';
import { accessOf } from '../../shared/contracts/operation.ts';
import { takesCursor } from '../../shared/contracts/paging.ts';
import { openApiDocument } from '../../shared/openapi.ts';
import { keys } from '../../shared/store/keys.ts';
import { SYNTH_TIMEOUT_MS, serviceTemplate } from './service-template.ts';

const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

const ALARM_EMAIL = 'oncall@example.com';

let app: App;
let template: Template;
let annotations: Annotations;

beforeAll(() => {
  // Bundling is skipped here (it is exercised by `cdk synth` and `npm run bench`); the wiring is what is checked.
  app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: ALARM_EMAIL } });
  const stack = new FleetTrackingStack(app, 'Test');
  Aspects.of(app).add(new AwsSolutionsChecks());
  app.synth();
  template = serviceTemplate(stack);
  // A nested stack's findings are reported on the stack it is nested in.
  annotations = Annotations.fromStack(stack);
}, SYNTH_TIMEOUT_MS);

type Resource = { Type: string; Properties: Record<string, any> };

const functionOf = (name: string): [string, Resource] => {
  const found = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
    String((fn as Resource).Properties.Description ?? '').includes(`/api/${name}:`),
  );
  if (!found) throw new Error(`no function for ${name}`);
  return found as [string, Resource];
};

const processorOf = (stackTemplate: Template): [string, Resource] =>
  Object.entries(stackTemplate.findResources('AWS::Lambda::Function')).find(([, fn]) =>
    String((fn as Resource).Properties.Description ?? '').startsWith('stream processPositions'),
  ) as [string, Resource];

const quietCheckOf = (): [string, Resource] =>
  Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
    String((fn as Resource).Properties.Description ?? '').startsWith('schedule checkQuietVehicles'),
  ) as [string, Resource];

const statementsGrantedTo = (functionLogicalId: string): Array<{ Action: string | string[]; Resource?: unknown }> => {
  const fn = template.findResources('AWS::Lambda::Function')[functionLogicalId] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => (policy as Resource).Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => (policy as Resource).Properties.PolicyDocument.Statement);
};

const TABLE_ARN = 'arn:aws:dynamodb:eu-west-1:123456789012:table/fleet';

/** A statement's value with the table's references made its ARN and the pseudo parameters made concrete. */
const resolved = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const reference = value as { 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]]; Ref?: string };
  if (reference['Fn::Join']) return reference['Fn::Join'][1].map(resolved).join(reference['Fn::Join'][0]);
  if (reference['Fn::GetAtt']?.[0].startsWith('Table')) return TABLE_ARN;
  return (
    ({ 'AWS::Partition': 'aws', 'AWS::Region': 'eu-west-1', 'AWS::AccountId': '123456789012' } as Record<string, string>)[
      reference.Ref ?? ''
    ] ?? JSON.stringify(value)
  );
};

/** What IAM decides for a table item call of a role, through @cloud-copilot/iam-simulate. */
async function simulatedDecision(statements: Array<Record<string, any>>, action: string, partitionKey: string): Promise<string> {
  const Statement = statements.map((statement) => ({ ...statement, Resource: [statement.Resource].flat().map(resolved) }));
  const answer = await runSimulation(
    {
      identityPolicies: [{ name: 'role', policy: { Version: '2012-10-17', Statement } }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action,
        principal: 'arn:aws:iam::123456789012:role/function',
        resource: { accountId: '123456789012', resource: TABLE_ARN },
        contextVariables: { 'dynamodb:LeadingKeys': [partitionKey] },
      },
    },
    {},
  );
  if (answer.resultType === 'error') throw new Error(JSON.stringify(answer.errors));
  return answer.overallResult;
}

const actionsGrantedTo = (functionLogicalId: string): string[] =>
  statementsGrantedTo(functionLogicalId).flatMap((statement) => [statement.Action].flat());

describe('the operation functions', () => {
  it.each(operations.map((operation) => [operation.name, operation]))('%s has its own function with the shared defaults', (name) => {
    const [, fn] = functionOf(name);
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogGroup: expect.anything() },
    });
    expect(fn.Properties.Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything() });
    // a logged error maps its stack itself: no source map parsed at every cold start
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
  });

  it.each(operations.map((operation) => [operation.name]))('%s is routed from /api/%s with ANY method', (name) => {
    const [logicalId] = functionOf(name);
    const resources = template.findResources('AWS::ApiGateway::Resource', { Properties: { PathPart: name } });
    expect(Object.keys(resources)).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'ANY',
      ResourceId: { Ref: Object.keys(resources)[0] },
      Integration: {
        Type: 'AWS_PROXY',
        Uri: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [logicalId, 'Arn'] })])]) }),
      },
    });
  });

  it('gives exactly one function per registry entry', () => {
    const described = Object.values(template.findResources('AWS::Lambda::Function')).filter((fn) =>
      /^(GET|POST) \/api\/\w+: /.test(String((fn as Resource).Properties.Description ?? '')),
    );
    expect(described).toHaveLength(operations.length);
  });

  it.each(operations.filter((op) => accessOf(op) === 'read').map((op) => [op.name]))(
    "%s (read) writes nothing on the table but its rate-limit buckets and an api key's last use",
    (name) => {
      const [logicalId] = functionOf(name);
      const statements = statementsGrantedTo(logicalId) as Array<{ Action: string | string[]; Condition?: unknown }>;
      const writes = statements.filter((statement) => [statement.Action].flat().some((action) => WRITE_ACTIONS.includes(action)));
      const onItems = (pk: string) =>
        expect.objectContaining({
          Action: 'dynamodb:UpdateItem',
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [pk] } },
        });
      const keyUse = (findOperation(name) as Operation).personOnly ? [] : [onItems(keys.apiKey('*').pk)];
      expect(writes).toEqual([onItems(keys.rateBucket('*').pk), ...keyUse]);
    },
  );

  it.each(operations.filter((op) => accessOf(op) === 'read').map((op) => [op.name]))(
    "%s (read) may spend an api key's bucket, as IAM judges its role, and write no other item",
    async (name) => {
      const [logicalId] = functionOf(name);
      const decide = (action: string, partitionKey: string) => simulatedDecision(statementsGrantedTo(logicalId), action, partitionKey);
      const recordsKeyUse = !(findOperation(name) as Operation).personOnly;
      expect(await decide('dynamodb:UpdateItem', keys.rateBucket('a1b2').pk)).toBe('Allowed');
      expect(await decide('dynamodb:UpdateItem', keys.apiKey('a1b2').pk)).toBe(recordsKeyUse ? 'Allowed' : 'ImplicitlyDenied');
      expect(await decide('dynamodb:PutItem', keys.apiKey('a1b2').pk)).toBe('ImplicitlyDenied');
      expect(await decide('dynamodb:UpdateItem', keys.user(1).pk)).toBe('ImplicitlyDenied');
      expect(await decide('dynamodb:PutItem', keys.rateBucket('a1b2').pk)).toBe('ImplicitlyDenied');
      expect(await decide('dynamodb:GetItem', keys.apiKey('a1b2').pk)).toBe('Allowed');
    },
  );

  it.each(operations.map((op) => [op.name, op]))(
    "%s is granted on the whole table exactly the actions its contract declares, the key lookup's GetItem besides",
    (name, operation) => {
      const [logicalId] = functionOf(name);
      const statements = statementsGrantedTo(logicalId) as Array<{ Action: string | string[]; Condition?: unknown }>;
      const onWholeTable = statements
        .filter((statement) => statement.Condition === undefined)
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('dynamodb:'));
      expect(new Set(onWholeTable)).toEqual(new Set(['GetItem', ...operation.tableActions].map((action) => `dynamodb:${action}`)));
    },
  );

  it.each(operations.map((op) => [op.name, op]))(
    '%s may claim, read, complete and release idempotency records only if it takes an Idempotency-Key',
    async (name, operation) => {
      const [logicalId] = functionOf(name);
      const decide = (action: string, partitionKey: string) => simulatedDecision(statementsGrantedTo(logicalId), action, partitionKey);
      const record = keys.idempotencyRecord(7, name, 'key').pk;
      const expected = 'idempotencyKey' in operation ? 'Allowed' : 'ImplicitlyDenied';
      for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
        const onOtherItems = operation.tableActions.includes(action.replace('dynamodb:', '') as never);
        expect(await decide(action, record)).toBe(onOtherItems ? 'Allowed' : expected);
      }
    },
  );
});

describe('the device entry points', () => {
  const deviceFunctionOf = (name: string): [string, Resource] => {
    const endpoint = deviceEndpoints.find((candidate) => candidate.name === name);
    const found = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
      String((fn as Resource).Properties.Description ?? '').includes(`: ${endpoint?.summary}`),
    );
    if (!found) throw new Error(`no function for ${name}`);
    return found as [string, Resource];
  };
  /** Each resource's full path, from its chain of parents. */
  const resourcePaths = (): Map<string, string> => {
    const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, Resource>;
    const pathOf = (id: string): string => {
      const { ParentId, PathPart } = resources[id]?.Properties ?? {};
      const parent = (ParentId as { Ref?: string } | undefined)?.Ref;
      return `${parent && resources[parent] ? pathOf(parent) : ''}/${PathPart}`;
    };
    return new Map(Object.keys(resources).map((id) => [pathOf(id), id]));
  };

  it.each(deviceEndpoints.flatMap((endpoint) => endpoint.resources.map((path) => [path, endpoint.name])))(
    '%s is routed to %s with ANY method',
    (path, name) => {
      const [logicalId] = deviceFunctionOf(name);
      const resourceId = resourcePaths().get(path);
      expect(resourceId).toBeDefined();
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'ANY',
        AuthorizationType: 'NONE',
        ResourceId: { Ref: resourceId },
        Integration: {
          Type: 'AWS_PROXY',
          Uri: Match.objectLike({
            'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [logicalId, 'Arn'] })])]),
          }),
        },
      });
    },
  );

  it.each(deviceEndpoints.flatMap((endpoint) => endpoint.resources.map((path) => [path, endpoint.name])))(
    '%s is also a route of the devices’ HTTP API to %s, payload format 2.0',
    (path, name) => {
      const [logicalId] = deviceFunctionOf(name);
      const [[routeId, route] = []] = Object.entries(
        template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: `ANY ${path}` } }),
      );
      expect(routeId).toBeDefined();
      const integrationId = String((route as Resource).Properties.Target['Fn::Join'][1][1].Ref);
      const integration = template.findResources('AWS::ApiGatewayV2::Integration')[integrationId] as Resource;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalId, 'Arn'] },
      });
      expect((route as Resource).Properties.AuthorizationType).toBe('NONE');
    },
  );

  it('has one HTTP API for the devices, throttled as the REST device paths, whose access log never keeps the path', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as Resource[];
    expect(stage?.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: deviceGatewayThrottle.rateLimit,
        ThrottlingBurstLimit: deviceGatewayThrottle.burstLimit,
      },
    });
    const format = String(stage?.Properties.AccessLogSettings.Format);
    expect(format).toContain('$context.routeKey');
    expect(format).not.toMatch(/\$context\.(path|http\.path|rawPath)|querystring/i);
    expect(Object.keys(template.findOutputs('*'))).toEqual(expect.arrayContaining(['DevicesUrl', 'DevicesHttpUrl']));
  });

  it('has a stage throttle of its own for every device path, set apart from the API’s', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage')) as Resource[];
    if (!stage) throw new Error('no stage');
    const devicePaths = deviceEndpoints.flatMap((endpoint) => endpoint.resources).map((path) => `/${path.replaceAll('/', '~1')}`);
    expect(stage.Properties.MethodSettings).toEqual(
      expect.arrayContaining(
        devicePaths.map((resourcePath) =>
          expect.objectContaining({
            ResourcePath: resourcePath,
            HttpMethod: '*',
            LoggingLevel: 'ERROR',
            MetricsEnabled: true,
            ThrottlingRateLimit: deviceGatewayThrottle.rateLimit,
            ThrottlingBurstLimit: deviceGatewayThrottle.burstLimit,
          }),
        ),
      ),
    );
    expect(deviceGatewayThrottle.rateLimit).not.toBe(stage.Properties.MethodSettings[0].ThrottlingRateLimit);
  });

  it.each(deviceEndpoints.map((endpoint) => [endpoint.name]))(
    '%s may put records on the positions stream and get items from the table, and write only its token and IMEI buckets',
    (name) => {
      const [logicalId, fn] = deviceFunctionOf(name);
      const actions = actionsGrantedTo(logicalId);
      expect(actions).toContain('kinesis:PutRecords');
      expect(actions.filter((action) => action.startsWith('dynamodb:')).sort()).toEqual([
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:UpdateItem',
      ]);
      expect(actions.filter((action) => WRITE_ACTIONS.includes(action))).toEqual(['dynamodb:UpdateItem']);
      const update = statementsGrantedTo(logicalId).find((statement) => statement.Action === 'dynamodb:UpdateItem') as {
        Condition?: unknown;
      };
      expect(update.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#TOKEN#*', 'RATE#IMEI#*'] } });
      expect(fn.Properties.Environment.Variables).toMatchObject({ POSITIONS_STREAM_NAME: { Ref: expect.stringMatching(/Positions/) } });
    },
  );

  it.each(deviceEndpoints.map((endpoint) => [endpoint.name]))(
    '%s logs as JSON without Lambda’s START, END and REPORT lines, traces only what its caller sampled',
    (name) => {
      const [, fn] = deviceFunctionOf(name);
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'INFO' });
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'PassThrough' });
      expect(fn.Properties.MemorySize).toBe(256);
    },
  );
});

describe('the table', () => {
  it('is on-demand, point-in-time recoverable, deletion-protected, retained, with TTL, gsi1 and the sparse quiet index', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        GlobalSecondaryIndexes: [
          Match.objectLike({ IndexName: 'gsi1', Projection: { ProjectionType: 'ALL' } }),
          Match.objectLike({
            IndexName: 'quiet',
            KeySchema: [
              { AttributeName: 'quiet_pk', KeyType: 'HASH' },
              { AttributeName: 'quiet_due', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          }),
        ],
        Replicas: [
          Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
        ],
      }),
    });
  });
});

describe('the bucket', () => {
  it('blocks public access, is encrypted, retained and expires its caches', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'livemaps/', ExpirationInDays: 7, Status: 'Enabled' }),
            Match.objectLike({ Prefix: 'directions/', Status: 'Enabled' }),
          ]),
        },
      }),
    });
  });

  it('refuses requests that are not over TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });
});

describe('what the logs and traces keep of a request', () => {
  const stage = (): Resource => Object.values(template.findResources('AWS::ApiGateway::Stage'))[0] as Resource;
  /** What would put the requested path (device token) or query string (api key) into a log line. */
  const REQUEST_URL_VARIABLES = /\$context\.(path|requestOverride|domainName)|\$input|\$method\.request|\$request\./;

  it('has an access log format naming the resource template, never the requested path or query string', () => {
    const format = String(stage().Properties.AccessLogSetting.Format);
    expect(format).toContain('"resourcePath":"$context.resourcePath"');
    expect(format).not.toMatch(REQUEST_URL_VARIABLES);
  });

  it('keeps execution logs to errors, without request or response data, on every path', () => {
    const settings = stage().Properties.MethodSettings as Array<Record<string, unknown>>;
    expect(settings).toContainEqual(expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*' }));
    for (const setting of settings) expect(setting).toMatchObject({ LoggingLevel: 'ERROR', DataTraceEnabled: false });
  });

  it("does not trace the stage, whose X-Ray segment records the whole request URL; the functions' segments do not", () => {
    expect(stage().Properties.TracingEnabled).toBe(false);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      if ('POWERTOOLS_SERVICE_NAME' in variables) expect(variables).toMatchObject({ POWERTOOLS_LOGGER_LOG_EVENT: 'false' });
    }
  });
});

describe('the API', () => {
  it('answers its own errors in the envelope', () => {
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(responses.length).toBeGreaterThanOrEqual(5);
    for (const response of responses as Resource[]) {
      const body = JSON.parse(response.Properties.ResponseTemplates['application/json']);
      expect(body).toEqual({ version: '1', result: 'error', error_msg: expect.any(String) });
    }
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
  });

  it("lets a timed-out or failed Lambda keep API Gateway's 502, as the local emulator answers it", () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'DEFAULT_5XX', StatusCode: Match.absent() });
  });

  it('answers the gateway responses the local emulator answers: the same types, statuses and bodies', () => {
    for (const answer of Object.values(gatewayAnswers)) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: answer.type,
        StatusCode: answer.status === undefined ? Match.absent() : String(answer.status),
        ResponseTemplates: { 'application/json': gatewayAnswerBody(answer) },
      });
    }
  });

  it("passes gzip answers as getLiveMap's PNG passes: every media type is binary, and API Gateway compresses nothing again", () => {
    const [api] = Object.values(template.findResources('AWS::ApiGateway::RestApi')) as Resource[];
    expect(api?.Properties.BinaryMediaTypes).toEqual(['*/*']);
    expect(api?.Properties.MinimumCompressionSize).toBeUndefined();
  });

  it('gives the paged operations, and only those, the secret their cursors are sealed with', () => {
    const pagedOperations = operations.filter(takesCursor).map(({ name }) => name);
    expect(pagedOperations).toEqual(expect.arrayContaining(['getTrips', 'getPositions', 'getEvents']));
    const [secretId] = Object.keys(template.findResources('AWS::SecretsManager::Secret'));
    for (const { name } of operations) {
      const [logicalId, fn] = functionOf(name);
      const variable = fn.Properties.Environment.Variables[env.cursorKeySecret];
      const reads = actionsGrantedTo(logicalId).includes('secretsmanager:GetSecretValue');
      expect(variable === undefined ? undefined : variable.Ref, name).toBe(pagedOperations.includes(name) ? secretId : undefined);
      expect(reads, name).toBe(pagedOperations.includes(name));
    }
  });

  it('lets redeliverEvents, and no other operation, send to the webhook retries queue, whose URL it is given', () => {
    const toRetries = ['sqs:SendMessage', { 'Fn::GetAtt': [expect.stringContaining('DeliveryRetries'), 'Arn'] }];
    for (const { name } of operations) {
      const [logicalId, fn] = functionOf(name);
      const sends = statementsGrantedTo(logicalId).filter((statement) =>
        [statement.Action].flat().some((action) => String(action).startsWith('sqs:')),
      );
      expect(
        sends.map((statement) => [statement.Action, statement.Resource]),
        name,
      ).toEqual(name === 'redeliverEvents' ? [toRetries] : []);
      expect(fn.Properties.Environment.Variables[env.webhookRetryQueueUrl] !== undefined, name).toBe(name === 'redeliverEvents');
      expect(fn.Properties.Environment.Variables[env.webhookQueueUrl], name).toBeUndefined();
    }
  });

  it('gives every operation the function timeout the local emulator enforces', () => {
    for (const { name } of operations) expect(functionOf(name)[1].Properties.Timeout, name).toBe(limits.functionTimeoutSeconds);
  });

  it('publishes the API URL, the table and the bucket', () => {
    expect(Object.keys(template.findOutputs('*'))).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'BucketName']));
  });
});

/** What detection calls, as the pipeline and the quiet-vehicles check, which both run it, must be granted. */
const DETECTION_GRANT = ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'].map((action) => `dynamodb:${action}`);
const tableActionsGrantedTo = (logicalId: string): string[] =>
  [...new Set(actionsGrantedTo(logicalId).filter((action) => action.startsWith('dynamodb:')))].sort();

describe('the positions pipeline', () => {
  it('has an encrypted Kinesis stream, provisioned with one shard and its included day of retention by default', () => {
    template.hasResourceProperties('AWS::Kinesis::Stream', {
      StreamModeDetails: { StreamMode: 'PROVISIONED' },
      ShardCount: 1,
      RetentionPeriodHours: 24,
      StreamEncryption: { EncryptionType: 'KMS' },
    });
  });

  it('alarms when the stream throttles writes or runs near its shards’ limits, naming the setting that resizes it', () => {
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm'));
    const [, alarm] = alarms.find(([id]) => id.includes('PositionsStreamNearCapacity')) as [string, Resource];
    const properties = alarm.Properties;
    expect(properties.AlarmDescription).toContain('-c positionsStreamShards=2');
    expect(properties.Threshold).toBe(80);
    const names = properties.Metrics.map((m: any) => m.MetricStat?.Metric?.MetricName).filter(Boolean);
    expect(names.sort()).toEqual(['IncomingBytes', 'IncomingRecords', 'WriteProvisionedThroughputExceeded']);
  });

  it('feeds processPositions in batches, bisecting on error, reporting partial failures, with a dead-letter queue', () => {
    const [logicalId] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
      String((fn as Resource).Properties.Description ?? '').startsWith('stream processPositions'),
    ) as [string, Resource];
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 5,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    expect(actionsGrantedTo(logicalId)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject']));
  });

  it('is granted the table reads and writes detection makes, and no Scan, batch write or condition check', () => {
    expect(tableActionsGrantedTo(processorOf(template)[0])).toEqual(DETECTION_GRANT);
  });
});

describe('the quiet-vehicles check', () => {
  it('runs checkQuietVehicles every minute from an EventBridge rule, one run at a time', () => {
    const [logicalId, fn] = quietCheckOf();
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId, 'Arn'] } })],
    });
  });

  it('is granted the table reads and writes detection makes, and no Scan, batch write or condition check', () => {
    expect(tableActionsGrantedTo(quietCheckOf()[0])).toEqual(DETECTION_GRANT);
  });
});

describe('provider configuration', () => {
  it('tells getLiveMap to use Amazon Location static maps and addRoute to use Amazon Location routes by default', () => {
    expect(functionOf('getLiveMap')[1].Properties.Environment.Variables).toMatchObject({ LIVE_MAP_PROVIDER: 'amazon-location' });
    expect(functionOf('addRoute')[1].Properties.Environment.Variables).toMatchObject({
      DIRECTIONS_PROVIDER: 'amazon',
      GEOCODING_PROVIDER: 'amazon',
    });
    expect(processorOf(template)[1].Properties.Environment.Variables).toMatchObject({ GEOCODING_PROVIDER: 'amazon' });
  });

  // places: addRoute, processPositions, checkQuietVehicles
  it('grants Amazon Location actions only to callers (routes: addRoute; places: the namers; maps: getLiveMap)', () => {
    const amazonLocationGrants = (logicalId: string) =>
      statementsGrantedTo(logicalId).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('geo')));
    const everyGrant = Object.keys(template.findResources('AWS::Lambda::Function')).flatMap(amazonLocationGrants);
    const provider = (service: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:${service}:`, { Ref: 'AWS::Region' }, '::provider/default']],
    });
    expect(amazonLocationGrants(functionOf('addRoute')[0])).toEqual(
      expect.arrayContaining([
        { Effect: 'Allow', Action: 'geo-routes:CalculateRoutes', Resource: provider('geo-routes') },
        { Effect: 'Allow', Action: 'geo-places:ReverseGeocode', Resource: provider('geo-places') },
      ]),
    );
    expect(amazonLocationGrants(processorOf(template)[0])).toEqual([
      { Effect: 'Allow', Action: 'geo-places:ReverseGeocode', Resource: provider('geo-places') },
    ]);
    expect(amazonLocationGrants(functionOf('getLiveMap')[0])).toEqual([
      { Effect: 'Allow', Action: 'geo-maps:GetStaticMap', Resource: provider('geo-maps') },
    ]);
    expect(amazonLocationGrants(quietCheckOf()[0])).toEqual([
      { Effect: 'Allow', Action: 'geo-places:ReverseGeocode', Resource: provider('geo-places') },
    ]);
    expect(everyGrant).toHaveLength(5);
  });

  it('refuses OSRM without an explicit osrmUrl: the public demo server is never a default', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], directionsProvider: 'osrm' } });
    expect(() => new FleetTrackingStack(app, 'NoOsrmUrl')).toThrow(/directionsProvider osrm needs the context value osrmUrl/);
    const withOsrm = serviceTemplate(
      new FleetTrackingStack(
        new App({ context: { 'aws:cdk:bundling-stacks': [], directionsProvider: 'osrm', osrmUrl: 'https://osrm.example.com' } }),
        'Osrm',
      ),
    );
    withOsrm.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ DIRECTIONS_PROVIDER: 'osrm', OSRM_URL: 'https://osrm.example.com' }) },
    });
    expect(JSON.stringify(withOsrm.toJSON())).not.toContain('geo-routes');
  });

  it('never names the public OSRM demo server, in code or in cdk.json', () => {
    const sources = ['cdk.json', 'infra/api/providers.ts', 'shared/config.ts', 'shared/providers/directions/osrm.ts'].map((path) =>
      readFileSync(path, 'utf8'),
    );
    expect(sources.filter((text) => text.includes('router.project-osrm.org'))).toEqual([]);
  });

  it("gives the geocoding functions the Google key's secret name and read access, never the key, and refuses google without one", () => {
    const context = { 'aws:cdk:bundling-stacks': [], geocodingProvider: 'google', googleGeocodingSecretName: 'fleet/google-geocoding' };
    const withGoogle = serviceTemplate(new FleetTrackingStack(new App({ context }), 'GoogleGeocoding'));
    expect(
      withGoogle.findResources('AWS::Lambda::Function', {
        Properties: {
          Environment: {
            Variables: Match.objectLike({ GEOCODING_PROVIDER: 'google', GOOGLE_GEOCODING_API_KEY_SECRET: 'fleet/google-geocoding' }),
          },
        },
      }),
      // addRoute, processPositions and checkQuietVehicles
    ).toSatisfy((found: object) => Object.keys(found).length === 3);
    expect(JSON.stringify(withGoogle.toJSON())).not.toContain('geo-places');
    const { googleGeocodingSecretName: _secret, ...withoutSecret } = context;
    expect(() => new FleetTrackingStack(new App({ context: withoutSecret }), 'NoGeocodingSecret')).toThrow(/googleGeocodingSecretName/);
  });

  it("gives addRoute the name of the Google key's secret and read access to it, never the key", () => {
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], directionsProvider: 'google', googleDirectionsSecretName: 'fleet/google-directions' },
    });
    const withGoogle = serviceTemplate(new FleetTrackingStack(app, 'Google'));
    withGoogle.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ DIRECTIONS_PROVIDER: 'google', GOOGLE_DIRECTIONS_API_KEY_SECRET: 'fleet/google-directions' }),
      },
    });
    // The key's value only: no DescribeSecret, which grantRead would add.
    withGoogle.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'secretsmanager:GetSecretValue' })]) },
    });
  });

  it("gives getLiveMap a tile server's URL template and its key's secret, with read access, and no Amazon Location grant", () => {
    const app = new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        liveMapProvider: 'tiles',
        mapTilesUrl: 'https://tiles.example.com/{z}/{x}/{y}.png?key={key}',
        mapTilesKeySecretName: 'fleet/map-tiles',
        mapTilesAttribution: '© OpenStreetMap contributors',
      },
    });
    const withTiles = serviceTemplate(new FleetTrackingStack(app, 'Tiles'));
    withTiles.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          LIVE_MAP_PROVIDER: 'tiles',
          MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png?key={key}',
          MAP_TILES_KEY_SECRET: 'fleet/map-tiles',
          MAP_TILES_ATTRIBUTION: '© OpenStreetMap contributors',
        }),
      },
    });
    const actions = Object.values(withTiles.findResources('AWS::IAM::Policy'))
      .flatMap((policy) => (policy as Resource).Properties.PolicyDocument.Statement)
      .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat());
    expect(actions).toContain('secretsmanager:GetSecretValue');
    expect(actions).not.toContain('geo-maps:GetStaticMap');
  });

  it('refuses the tiles provider without a URL template', () => {
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], liveMapProvider: 'tiles', mapTilesUrl: 'https://tiles.example.com/tile.png' },
    });
    expect(() => new FleetTrackingStack(app, 'NoTemplate')).toThrow(/mapTilesUrl/);
  });

  it('refuses Google directions without a secret', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], directionsProvider: 'google' } });
    expect(() => new FleetTrackingStack(app, 'NoSecret')).toThrow(/googleDirectionsSecretName/);
  });

  it("serves the map's PNG as binary whatever the client accepts", () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });
});

describe('scaling', () => {
  it.each(operations.map((operation) => [operation.name]))(
    '%s gives each api key a bucket of 300 requests refilled at 150 a second by default',
    (name) => {
      expect(functionOf(name)[1].Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_PER_SECOND: '150', RATE_LIMIT_BURST: '300' });
    },
  );

  it('takes the per-key bucket from the rateLimitPerSecond and rateLimitBurst context values', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], rateLimitPerSecond: 60, rateLimitBurst: 90 } });
    const limited = serviceTemplate(new FleetTrackingStack(app, 'Limited'));
    const buckets = Object.values(limited.findResources('AWS::Lambda::Function'))
      .map((fn) => (fn as Resource).Properties.Environment?.Variables)
      .filter((variables) => variables?.RATE_LIMIT_PER_SECOND !== undefined)
      .map((variables) => `${variables.RATE_LIMIT_PER_SECOND}/${variables.RATE_LIMIT_BURST}`);
    expect(new Set(buckets)).toEqual(new Set(['60/90']));
  });

  it('refuses a bucket that is not a whole number of requests', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], rateLimitBurst: 0.5 } });
    expect(() => new FleetTrackingStack(app, 'Broken')).toThrow('rateLimitBurst must be a whole number of requests');
  });

  it("tells API Gateway's own 429 when to come back, as the functions' 429s do", () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      StatusCode: '429',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });

  it('keeps a stage-wide ceiling above the per-key limit', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 })]),
    });
  });

  it("caps processPositions' concurrency at one batcher per shard, with the measured stream settings", () => {
    const [logicalId, processor] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
      String((fn as Resource).Properties.Description ?? '').startsWith('stream processPositions'),
    ) as [string, Resource];
    expect(processor.Properties.ReservedConcurrentExecutions).toBe(1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId },
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 30,
      ParallelizationFactor: 1,
    });
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  /** every metric name an alarm watches, directly or inside its metric math */
  const watched = (alarm: Resource): string[] =>
    [alarm.Properties.MetricName, ...(alarm.Properties.Metrics ?? []).map((m: any) => m.MetricStat?.Metric?.MetricName)].filter(Boolean);
  const alarmsWatching = (metricName: string) => alarms().filter((alarm) => watched(alarm).includes(metricName));
  const topicId = () => Object.keys(template.findResources('AWS::SNS::Topic'))[0] as string;

  it('all go to one SNS topic, whose subscriber is the alarmEmail context value', () => {
    expect(Object.keys(template.findResources('AWS::SNS::Topic'))).toHaveLength(1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: ALARM_EMAIL, TopicArn: { Ref: topicId() } });
    for (const alarm of alarms()) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId() }]);
  });

  it('each give a one-line reason', () => {
    for (const alarm of alarms()) expect(alarm.Properties.AlarmDescription).toMatch(/^[^\n]{20,}$/);
  });

  it.each([
    ['the API 5xx rate', '5XXError'],
    ['processPositions iterator age', 'IteratorAge'],
    ['positions rejected', 'PositionsRejected'],
    ['positions too late', 'PositionsTooLate'],
    ['positions failed', 'PositionsFailed'],
    ['DynamoDB throttled requests', 'ThrottledRequests'],
    ['DynamoDB system errors', 'SystemErrors'],
  ])('watch %s (%s)', (_subject, metricName) => {
    expect(alarmsWatching(metricName)).toHaveLength(1);
  });

  it('watch the failed-batches queue, the webhook dead letters and the webhook router failures not empty', () => {
    expect(alarmsWatching('ApproximateNumberOfMessagesVisible')).toHaveLength(3);
  });

  it('watch the oldest first webhook attempt (an hour) and the oldest retry (26 h)', () => {
    const thresholds = alarmsWatching('ApproximateAgeOfOldestMessage').map((alarm) => alarm.Properties.Threshold);
    expect(thresholds.sort((a, b) => a - b)).toEqual([3600, 26 * 3600]);
  });

  it.each([
    ['the webhook delivery lag', 'WebhookDeliveryLagSeconds'],
    ['the webhook failure rate', 'WebhookAttemptsFailed'],
  ])('watch %s (%s)', (_subject, metricName) => {
    expect(alarmsWatching(metricName)).toHaveLength(1);
  });

  it.each([['Errors'], ['Throttles']])('watch Lambda %s of every function, by function group', (metricName) => {
    const functionsWatched = alarmsWatching(metricName)
      .flatMap((alarm) => alarm.Properties.Metrics.map((m: any) => m.MetricStat?.Metric?.Dimensions?.[0]?.Value?.Ref))
      .filter(Boolean)
      .sort();
    // CDK's own deploy-time functions (log retention, the console's upload) serve no request: nothing to alarm on.
    const everyFunction = Object.keys(template.findResources('AWS::Lambda::Function'))
      .filter((id) => !id.startsWith('LogRetention') && !id.startsWith('CustomCDKBucketDeployment'))
      .sort();
    expect(functionsWatched).toEqual(everyFunction);
    expect(alarmsWatching(metricName).length).toBeGreaterThanOrEqual(3);
  });

  it('watch the custom metrics under the names the handlers publish', () => {
    const customAlarms = alarms()
      .flatMap((alarm) => alarm.Properties.Metrics ?? [])
      .filter((m: any) => m.MetricStat?.Metric?.Namespace === 'FleetTracking');
    expect(customAlarms.length).toBeGreaterThan(0);
    for (const metric of customAlarms) expect(metric.MetricStat.Metric.Dimensions).toEqual([{ Name: 'service', Value: 'fleet-tracking' }]);
  });
});

describe('the dashboard', () => {
  const body = (): string => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    return JSON.stringify(dashboard?.Properties.DashboardBody);
  };

  it.each([
    ['traffic', 'Traffic'],
    ['latency p50 per operation', 'Latency p50 per operation'],
    ['latency p99 per operation', 'Latency p99 per operation'],
    ['errors', 'Errors: API 4xx/5xx'],
    ['pipeline lag', 'Pipeline lag'],
    ['DynamoDB capacity', 'DynamoDB capacity'],
  ])('shows %s', (_subject, title) => {
    expect(body()).toContain(title);
  });

  it.each(operations.map((operation) => [operation.name]))('graphs the latency of %s', (name) => {
    expect(body()).toContain(`\\"operation\\",\\"${name}\\"`);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing that infra/nag-acknowledgements.ts does not argue for', () => {
    const findings = annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(findings.map((finding) => `${finding.id}: ${String(finding.entry.data).split(':')[0]}`)).toEqual([]);
  });
});

describe('the API documentation', () => {
  const documentationParts = () =>
    Object.values(template.findResources('AWS::ApiGateway::DocumentationPart')).map((part) => ({
      location: (part as Resource).Properties.Location,
      properties: JSON.parse((part as Resource).Properties.Properties),
    }));

  it.each(operations.map((operation) => [operation.name, operation]))(
    '%s has a documentation part on its method, with its summary',
    (name, operation) => {
      const parts = documentationParts().filter(({ location }) => location.Type === 'METHOD' && location.Path === `/api/${name}`);
      expect(parts).toHaveLength(1);
      expect(parts[0]?.location.Method).toBe('ANY');
      expect(parts[0]?.properties.summary).toBe(operation.summary);
      expect(parts[0]?.properties.description).toContain(`${operation.method} /api/${name}`);
    },
  );

  it.each([
    ['query', 'QUERY_PARAMETER'],
    ['header', 'REQUEST_HEADER'],
  ])('documents the API and the %s parameters of the OpenAPI document', (place, type) => {
    const document = openApiDocument(operations);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((described) =>
        described.parameters.filter((parameter) => parameter.in === place).map((parameter) => `${path}?${parameter.name}`),
      ),
    );
    const parts = documentationParts();
    expect(parts.filter(({ location }) => location.Type === 'API')).toHaveLength(1);
    expect(documented.length).toBeGreaterThan(0);
    expect(
      parts
        .filter(({ location }) => location.Type === type)
        .map(({ location }) => `${location.Path}?${location.Name}`)
        .sort(),
    ).toEqual(documented.sort());
  });

  it('publishes a documentation version, made after the parts, on the stage', () => {
    const [[versionId, version]] = Object.entries(template.findResources('AWS::ApiGateway::DocumentationVersion')) as [
      [string, Resource & { DependsOn: string[] }],
    ];
    expect(version.DependsOn).toHaveLength(Object.keys(template.findResources('AWS::ApiGateway::DocumentationPart')).length);
    template.hasResource('AWS::ApiGateway::Stage', {
      Properties: Match.objectLike({ DocumentationVersion: version.Properties.DocumentationVersion }),
      DependsOn: Match.arrayWith([versionId]),
    });
  });
});

describe('the API reference', () => {
  const docsFunction = (): [string, Resource] => {
    const found = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
      String((fn as Resource).Properties.Description ?? '').includes('/api/docs'),
    );
    if (!found) throw new Error('no docs function');
    return found as [string, Resource];
  };

  it.each([['openapi.json'], ['docs'], ['{asset}']])('routes GET %s to the docs function, outside the registry', (pathPart) => {
    const [logicalId] = docsFunction();
    const [[resourceId]] = Object.entries(template.findResources('AWS::ApiGateway::Resource', { Properties: { PathPart: pathPart } })) as [
      [string, unknown],
    ];
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'GET',
      ResourceId: { Ref: resourceId },
      Integration: Match.objectLike({
        Uri: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [logicalId, 'Arn'] })])]) }),
      }),
    });
    expect(operations.map((operation) => operation.name)).not.toContain(pathPart);
  });

  it('has no access to the table or the bucket', () => {
    const [logicalId, fn] = docsFunction();
    expect(actionsGrantedTo(logicalId).filter((action) => /^(dynamodb|s3):/.test(action))).toEqual([]);
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
  });
});

describe('webhook delivery', () => {
  const functionDescribed = (prefix: string): [string, Resource] =>
    Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
      String((fn as Resource).Properties.Description ?? '').startsWith(prefix),
    ) as [string, Resource];
  const mappingOf = (logicalId: string) =>
    Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).find(
      (mapping) => (mapping as Resource).Properties.FunctionName.Ref === logicalId,
    ) as Resource;

  it('feeds routeWebhookEvents only the feed items commits append, reporting partial failures, with a failure queue', () => {
    const [routerId] = functionDescribed('stream routeWebhookEvents');
    const mapping = mappingOf(routerId);
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['feed-event'] }, copied: [{ exists: false }] } },
    });
  });

  it('feeds sendWebhooks first attempts (20 at once) and, apart, retries (10 at once), both dead-lettered after their receives', () => {
    // Prepare
    const [senderId] = functionDescribed('queue sendWebhooks');
    const queueIds = Object.keys(template.findResources('AWS::SQS::Queue'));
    const [deliveries, retries] = ['Deliveries', 'Retries'].map((name) => queueIds.find((id) => id.includes(`Delivery${name}`)));
    // Act
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => (mapping as Resource).Properties.FunctionName.Ref === senderId,
    ) as Resource[];
    // Assess
    const concurrencyOf = (queueId: string | undefined) =>
      mappings.find((mapping) => mapping.Properties.EventSourceArn['Fn::GetAtt'][0] === queueId)?.Properties.ScalingConfig;
    expect(mappings.map((mapping) => mapping.Properties)).toEqual([
      expect.objectContaining({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] }),
      expect.objectContaining({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] }),
    ]);
    expect([concurrencyOf(deliveries), concurrencyOf(retries)]).toEqual([{ MaximumConcurrency: 20 }, { MaximumConcurrency: 10 }]);
    const queues = Object.values(template.findResources('AWS::SQS::Queue')) as Resource[];
    expect(queues.filter((queue) => queue.Properties.RedrivePolicy?.maxReceiveCount === 10)).toHaveLength(2);
  });

  it('lets the sender send to the retries queue only, whose URL it is given beside the first attempts queue', () => {
    const [senderId, sender] = functionDescribed('queue sendWebhooks');
    const sends = statementsGrantedTo(senderId).filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(sends.flatMap((statement) => [statement.Resource].flat())).toEqual([
      { 'Fn::GetAtt': [expect.stringContaining('DeliveryRetries'), 'Arn'] },
    ]);
    expect(Object.keys(sender.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining([env.webhookQueueUrl, env.webhookRetryQueueUrl]),
    );
  });

  it('lets the router only query the table and send to the queue', () => {
    const [routerId] = functionDescribed('stream routeWebhookEvents');
    const actions = actionsGrantedTo(routerId).filter(
      (action) => /^(dynamodb|sqs):/.test(action) && !/Stream|Shard|GetRecords/.test(action),
    );
    expect([...new Set(actions)].sort()).toEqual(['dynamodb:Query', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
  });

  it('lets the sender write its slots, its log and the endpoint, and no other item, as IAM judges its role', async () => {
    const [senderId] = functionDescribed('queue sendWebhooks');
    const decide = (action: string, partitionKey: string) => simulatedDecision(statementsGrantedTo(senderId), action, partitionKey);
    expect(await decide('dynamodb:PutItem', keys.webhookSlot(1, 2, 0).pk)).toBe('Allowed');
    expect(await decide('dynamodb:DeleteItem', keys.webhookSlot(1, 2, 0).pk)).toBe('Allowed');
    expect(await decide('dynamodb:PutItem', keys.deliveryAttempt(1, 2, '2026-11-26T00:00:00.000Z', 'evt_1', 1).pk)).toBe('Allowed');
    expect(await decide('dynamodb:GetItem', keys.webhook(1, 2).pk)).toBe('Allowed');
    expect(await decide('dynamodb:UpdateItem', keys.webhook(1, 2).pk)).toBe('Allowed');
    expect(await decide('dynamodb:PutItem', keys.webhook(1, 2).pk)).toBe('ImplicitlyDenied');
    expect(await decide('dynamodb:DeleteItem', keys.webhook(1, 2).pk)).toBe('ImplicitlyDenied');
    expect(await decide('dynamodb:UpdateItem', keys.apiKey('a1b2').pk)).toBe('ImplicitlyDenied');
    expect(await decide('dynamodb:Query', keys.webhook(1, 2).pk)).toBe('ImplicitlyDenied');
  });
});

describe('the stack outputs', () => {
  it('are the ones the README lists', () => {
    // Prepare
    const readme = readFileSync('README.md', 'utf8');
    const listed = /Outputs: ((?:`\w+`,?\s*)+)\./.exec(readme)?.[1] ?? '';
    // Act
    // CDK's RestApi adds the stage URL as ApiEndpoint<hash> by itself; the README names it apart
    const outputs = Object.keys(template.findOutputs('*')).filter((id) => !id.startsWith('ApiEndpoint'));
    // Assess
    expect([...listed.matchAll(/`(\w+)`/g)].map((match) => match[1]).sort()).toEqual(outputs.sort());
  });
});

describe('the Teltonika listener', () => {
  const resourceOf = (type: string): [string, Resource] => {
    const [found] = Object.entries(template.findResources(type));
    if (!found) throw new Error(`no ${type}`);
    return found as [string, Resource];
  };

  it('runs as an arm64 Fargate service whose image is built from the repository, writing to the positions stream', () => {
    const [, task] = resourceOf('AWS::ECS::TaskDefinition');
    expect(task.Properties).toMatchObject({
      RequiresCompatibilities: ['FARGATE'],
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      Cpu: String(teltonikaSettings.cpu),
      Memory: String(teltonikaSettings.memoryMiB),
    });
    const [container] = task.Properties.ContainerDefinitions;
    expect(JSON.stringify(container.Image)).toContain('cdk-hnb659fds-container-assets');
    expect(container.PortMappings).toEqual([{ ContainerPort: teltonikaSettings.port, Protocol: 'tcp' }]);
    const variables = Object.fromEntries(container.Environment.map((entry: { Name: string; Value: unknown }) => [entry.Name, entry.Value]));
    expect(variables).toMatchObject({ POSITIONS_STREAM_NAME: expect.anything(), TABLE_NAME: expect.anything() });
    const taskRole = task.Properties.TaskRoleArn['Fn::GetAtt'][0];
    const granted = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => (policy as Resource).Properties.Roles.some((role: { Ref: string }) => role.Ref === taskRole))
      .flatMap((policy) => (policy as Resource).Properties.PolicyDocument.Statement)
      .flatMap((statement) => [statement.Action].flat());
    expect(granted).toEqual(expect.arrayContaining(['kinesis:PutRecords', 'dynamodb:GetItem']));
    expect(granted.filter((action: string) => /^dynamodb:(Put|Update|Delete|BatchWrite|Scan)/.test(action))).toEqual([]);
  });

  /** The listener alone in a stack of its own, under the context given (a whole stack takes seconds to synthesize). */
  const listenerStack = (context: Record<string, string>): Stack => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Listener');
    const table = new dynamodb.TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
    new TeltonikaService(stack, 'Teltonika', { stream: new kinesis.Stream(stack, 'Stream'), table });
    return stack;
  };
  const UNITS = { [TELTONIKA_ALLOWED_CIDRS_CONTEXT]: '203.0.113.0/24' };
  const LOAD_BALANCED = { [TELTONIKA_CONTEXT.mode]: 'load-balanced', ...UNITS };
  const PUBLISHED = { [TELTONIKA_CONTEXT.hostedZoneId]: 'Z0123456789ABCDEFGHIJ', [TELTONIKA_CONTEXT.hostName]: 'units.example.com' };

  const ingressOf = (stackTemplate: Template, port: number = teltonikaSettings.port) =>
    Object.values(stackTemplate.findResources('AWS::EC2::SecurityGroup'))
      .flatMap((group) => (group as Resource).Properties.SecurityGroupIngress ?? [])
      .filter((rule: { FromPort: number; CidrIp?: string }) => rule.FromPort === port && rule.CidrIp)
      .map((rule: { CidrIp: string }) => rule.CidrIp);
  const containerOf = (stackTemplate: Template) =>
    (Object.values(stackTemplate.findResources('AWS::ECS::TaskDefinition'))[0] as Resource).Properties.ContainerDefinitions[0];
  const environmentOf = (stackTemplate: Template) =>
    Object.fromEntries(containerOf(stackTemplate).Environment.map((entry: { Name: string; Value: unknown }) => [entry.Name, entry.Value]));

  describe('by default (single-task)', () => {
    it('runs one task with a public address, no load balancer and no scaling', () => {
      template.hasResourceProperties('AWS::ECS::Service', {
        DesiredCount: 1,
        NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
        DeploymentConfiguration: Match.objectLike({ MinimumHealthyPercent: 100, MaximumPercent: 200 }),
      });
      expect(template.findResources('AWS::ElasticLoadBalancingV2::LoadBalancer')).toEqual({});
      expect(template.findResources('AWS::ApplicationAutoScaling::ScalableTarget')).toEqual({});
    });

    it('admits the allowed sources on the task itself, which reads no PROXY header and is replaced when its port stops accepting', () => {
      // Act
      const single = Template.fromStack(listenerStack(UNITS));
      // Assess
      expect(ingressOf(single)).toEqual(['203.0.113.0/24']);
      expect(environmentOf(single)[env.teltonikaProxyProtocol]).toBe('false');
      expect(containerOf(single).HealthCheck.Command.join(' ')).toContain(`connect(${teltonikaSettings.port}, '127.0.0.1')`);
    });

    it('publishes nowhere without a hosted zone, and says so in one warning and in the output', () => {
      const warnings = annotations.findWarning('*', Match.stringLikeRegexp('address is published nowhere'));
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]?.entry.data)).toContain(TELTONIKA_CONTEXT.hostedZoneId);
      expect(Object.values(template.findOutputs('TeltonikaHost'))[0]?.Value).toMatch(/^not published: set teltonikaHostedZoneId/);
      expect(template.findResources('AWS::StepFunctions::StateMachine')).toEqual({});
    });

    it('alarms when the fleet outgrows the one task, naming the setting that moves it', () => {
      const [, alarm] = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
        id.includes('TeltonikaSingleTaskNearCapacity'),
      ) as [string, Resource];
      expect(alarm.Properties).toMatchObject({ Threshold: 80, EvaluationPeriods: 3 });
      expect(alarm.Properties.AlarmDescription).toContain(`${TELTONIKA_CONTEXT.mode}=load-balanced`);
      const expression = alarm.Properties.Metrics.find((metric: { Expression?: string }) => metric.Expression)?.Expression;
      expect(expression).toBe(`MAX([100 * connections / ${teltonikaSettings.connectionsPerTask}, cpu])`);
    });

    it('alarms when no task has reported for 3 minutes, counting a missing minute', () => {
      const [, alarm] = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
        id.includes('TeltonikaNoHealthyTask'),
      ) as [string, Resource];
      expect(alarm.Properties).toMatchObject({ TreatMissingData: 'breaching', EvaluationPeriods: 3, Threshold: 1 });
      expect(JSON.stringify(alarm.Properties.Metrics)).toContain('"MetricName":"TeltonikaOpenConnections"');
      expect(JSON.stringify(alarm.Properties.Metrics)).toContain('"Stat":"SampleCount"');
    });
  });

  describe('single-task with a published name', () => {
    let published: Template;
    let publishedAnnotations: Annotations;
    beforeAll(() => {
      const stack = listenerStack({ ...UNITS, ...PUBLISHED });
      Aspects.of(stack).add(new AwsSolutionsChecks());
      published = Template.fromStack(stack);
      publishedAnnotations = Annotations.fromStack(stack);
    });

    it('keeps the started task’s public address in the A record, from an express state machine run on each task start', () => {
      // Prepare
      const [, machine] = Object.entries(published.findResources('AWS::StepFunctions::StateMachine'))[0] as [string, Resource];
      const definition = JSON.parse(JSON.stringify(machine.Properties.DefinitionString));
      const text = JSON.stringify(definition);
      // Assess
      expect(machine.Properties.StateMachineType).toBe('EXPRESS');
      expect(text).toContain('aws-sdk:ec2:describeNetworkInterfaces');
      expect(text).toContain('aws-sdk:route53:changeResourceRecordSets');
      expect(text).toContain('Z0123456789ABCDEFGHIJ');
      expect(text).toContain('units.example.com');
      expect(text).toContain('UPSERT');
      published.hasResourceProperties('AWS::Events::Rule', {
        EventPattern: {
          source: ['aws.ecs'],
          'detail-type': ['ECS Task State Change'],
          detail: Match.objectLike({ lastStatus: ['RUNNING'], desiredStatus: ['RUNNING'], healthStatus: ['HEALTHY'] }),
        },
      });
      expect(Object.values(published.findOutputs('TeltonikaHost'))[0]?.Value).toBe('units.example.com');
    });

    it('may change only that record, only to UPSERT an A value, and the task role gains nothing', () => {
      // Prepare
      const statements = Object.values(published.findResources('AWS::IAM::Policy')).flatMap(
        (policy) => (policy as Resource).Properties.PolicyDocument.Statement,
      );
      // Act
      const route53 = statements.filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('route53:')));
      // Assess
      expect(route53).toEqual([
        expect.objectContaining({
          Action: 'route53:ChangeResourceRecordSets',
          Condition: {
            'ForAllValues:StringEquals': {
              'route53:ChangeResourceRecordSetsNormalizedRecordNames': ['units.example.com'],
              'route53:ChangeResourceRecordSetsRecordTypes': ['A'],
              'route53:ChangeResourceRecordSetsActions': ['UPSERT'],
            },
          },
        }),
      ]);
      expect(JSON.stringify(route53[0].Resource)).toContain(':route53:::hostedzone/Z0123456789ABCDEFGHIJ');
      const taskActions = statements
        .flatMap((statement) => [statement.Action].flat())
        .filter((action: string) => /^(kinesis|dynamodb):/.test(action));
      expect(taskActions.sort()).toEqual(['dynamodb:GetItem', 'kinesis:PutRecords']);
    });

    it('passes cdk-nag AwsSolutions (the rest of the listener is checked with the whole stack)', () => {
      const findings = publishedAnnotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
      const publisher = findings.filter((finding) => /AddressPublisher|TaskStarted/.test(finding.id));
      expect(publisher.map((finding) => finding.entry.data)).toEqual([]);
    });
  });

  describe('load-balanced', () => {
    let balanced: Template;
    beforeAll(() => {
      balanced = Template.fromStack(listenerStack(LOAD_BALANCED));
    });

    it('is reached through a Network Load Balancer TCP listener on the device port, which alone reaches the tasks', () => {
      balanced.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', { Type: 'network', Scheme: 'internet-facing' });
      balanced.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Protocol: 'TCP', Port: teltonikaSettings.port });
      balanced.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
        Protocol: 'TCP',
        TargetType: 'ip',
        HealthCheckProtocol: 'TCP',
      });
      balanced.hasResourceProperties('AWS::ECS::Service', { DesiredCount: teltonikaSettings.minTasks });
      expect(ingressOf(balanced)).toEqual(['203.0.113.0/24']);
      expect(Object.keys(balanced.findOutputs('TeltonikaHost'))).toHaveLength(1);
    });

    it('scales with CPU and with open connections per task', () => {
      balanced.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
        MinCapacity: teltonikaSettings.minTasks,
        MaxCapacity: teltonikaSettings.maxTasks,
        ScalableDimension: 'ecs:service:DesiredCount',
      });
      balanced.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        TargetTrackingScalingPolicyConfiguration: Match.objectLike({
          PredefinedMetricSpecification: { PredefinedMetricType: 'ECSServiceAverageCPUUtilization' },
          TargetValue: teltonikaSettings.cpuTargetPercent,
        }),
      });
      balanced.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        TargetTrackingScalingPolicyConfiguration: Match.objectLike({
          CustomizedMetricSpecification: Match.objectLike({ MetricName: 'TeltonikaOpenConnections', Statistic: 'Average' }),
          TargetValue: teltonikaSettings.connectionsPerTask,
        }),
      });
    });

    it('passes each unit’s address to the listener with PROXY protocol v2, which the container is told to read', () => {
      balanced.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
        TargetGroupAttributes: Match.arrayWith([{ Key: 'proxy_protocol_v2.enabled', Value: 'true' }]),
      });
      expect(environmentOf(balanced)[env.teltonikaProxyProtocol]).toBe('true');
      expect(containerOf(balanced).HealthCheck).toBeUndefined();
    });

    it(
      'alarms on the balancer’s healthy targets, and has no single task to outgrow',
      () => {
        // Prepare
        const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...LOAD_BALANCED } });
        const whole = serviceTemplate(new FleetTrackingStack(app, 'Balanced'));
        const alarms = Object.entries(whole.findResources('AWS::CloudWatch::Alarm'));
        // Act
        const noTask = alarms.find(([id]) => id.includes('TeltonikaNoHealthyTask'))?.[1] as Resource;
        // Assess
        expect(JSON.stringify(noTask.Properties.Metrics)).toContain('"MetricName":"HealthyHostCount"');
        expect(noTask.Properties.TreatMissingData).toBe('notBreaching');
        expect(alarms.filter(([id]) => id.includes('TeltonikaSingleTaskNearCapacity'))).toEqual([]);
      },
      SYNTH_TIMEOUT_MS,
    );

    it('terminates TLS on its own port with the ACM certificate the deployment setting names, and has no TLS port without it', () => {
      // Prepare
      const certificate = 'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
      // Act
      const withTls = Template.fromStack(listenerStack({ ...LOAD_BALANCED, [TELTONIKA_TLS_CERTIFICATE_CONTEXT]: certificate }));
      // Assess
      withTls.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
        Protocol: 'TLS',
        Port: teltonikaSettings.tlsPort,
        Certificates: [{ CertificateArn: certificate }],
      });
      expect(ingressOf(withTls, teltonikaSettings.tlsPort)).toEqual(['203.0.113.0/24']);
      expect(balanced.findResources('AWS::ElasticLoadBalancingV2::Listener', { Properties: { Protocol: 'TLS' } })).toEqual({});
    });
  });

  it('admits only the source addresses the deployment setting states, and none with a one-line warning without it', () => {
    // Act
    const limited = Template.fromStack(listenerStack({ [TELTONIKA_ALLOWED_CIDRS_CONTEXT]: '203.0.113.0/24, 198.51.100.7/32' }));
    const everyone = Template.fromStack(listenerStack({ [TELTONIKA_ALLOWED_CIDRS_CONTEXT]: '0.0.0.0/0' }));
    // Assess
    expect(ingressOf(limited).sort()).toEqual(['198.51.100.7/32', '203.0.113.0/24']);
    expect(ingressOf(everyone)).toEqual(['0.0.0.0/0']);
    expect(ingressOf(template)).toEqual([]);
    const warnings = annotations.findWarning('*', Match.stringLikeRegexp('Teltonika port admits no source'));
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.entry.data)).toContain(TELTONIKA_ALLOWED_CIDRS_CONTEXT);
  });

  it.each([
    [{ [TELTONIKA_ALLOWED_CIDRS_CONTEXT]: 'trucks.example.com' }, 'trucks.example.com is not an IPv4 CIDR'],
    [{ [TELTONIKA_CONTEXT.mode]: 'nlb' }, 'teltonikaListenerMode must be single-task or load-balanced'],
    [{ [TELTONIKA_TLS_CERTIFICATE_CONTEXT]: 'arn:aws:acm:eu-west-1:1:certificate/x' }, 'needs teltonikaListenerMode=load-balanced'],
    [{ ...LOAD_BALANCED, ...PUBLISHED }, 'apply to single-task mode'],
    [{ [TELTONIKA_CONTEXT.hostName]: 'units.example.com' }, 'teltonikaHostedZoneId must be a Route 53 hosted zone id'],
    [{ [TELTONIKA_CONTEXT.hostedZoneId]: 'Z0123456789ABCDEFGHIJ' }, 'teltonikaHostName must be a lower-case DNS name'],
    [{ ...PUBLISHED, [TELTONIKA_CONTEXT.hostName]: 'Units.Example.com.' }, 'teltonikaHostName must be a lower-case DNS name'],
  ])('refuses the setting %o', (context, message) => {
    expect(() => listenerStack(context)).toThrow(message);
  });

  it.each([
    ['TeltonikaHandshakesRejected', 'TeltonikaHandshakesRejected'],
    ['TeltonikaCrcFailures', 'TeltonikaCrcFailures'],
    ['TeltonikaRecordsNotAcked', 'TeltonikaRecordsNotAcked'],
    ['TeltonikaHandshakeRefusalBurst', 'TeltonikaHandshakesRejected'],
    ['TeltonikaRecordsDeadLettered', 'TeltonikaRecordsDeadLettered'],
  ])('alarms on %s to the one topic', (alarm, metricName) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: Match.absent(),
      MetricName: metricName,
      Namespace: 'FleetTracking',
      AlarmActions: [{ Ref: Match.stringLikeRegexp('MonitoringAlarms') }],
    });
    expect(Object.keys(template.findResources('AWS::CloudWatch::Alarm')).some((id) => id.includes(alarm))).toBe(true);
  });

  it('appears on the dashboard', () => {
    const [, dashboard] = resourceOf('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const name of ['TeltonikaOpenConnections', 'TeltonikaRecordsNotAcked', 'TeltonikaHandshakesRejected', 'TeltonikaCrcFailures'])
      expect(body).toContain(name);
  });

  it('stages only the files its image build reads, so synth stays fast and offline', () => {
    const assets = JSON.parse(readFileSync(join(app.outdir, 'Test.assets.json'), 'utf8'));
    const [image] = Object.values(assets.dockerImages) as Array<{ source: { directory: string; dockerFile: string } }>;
    const staged = readdirSync(join(app.outdir, image?.source.directory ?? ''), { recursive: true }).map(String);
    expect(image?.source.dockerFile).toBe('infra/positions/teltonika/Dockerfile');
    expect(staged).toContain(join('shared', 'devices', 'teltonika', 'listener.ts'));
    expect(staged.filter((path) => /^(node_modules|test|functions|docs|\.git|\.local)\b/.test(path))).toEqual([]);
  });
});
