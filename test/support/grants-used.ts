/**
 * Least privilege, proven by use: every AWS call a function or task made across the test run (recorded by the local
 * IAM enforcement, local/iam/enforcement.ts) compared with what its role allows. A call its role refused is a defect
 * even if the code swallowed the error; a data-plane grant no call used is a defect unless an exception below says why.
 */
import { handlerPath } from '../../functions/registry.ts';
import type { PolicyStatement, Principals } from '../../local/iam/principals.ts';
import { keys } from '../../shared/store/keys.ts';

export interface RecordedCall {
  principal: string;
  action: string;
  resource: string;
  decision: string;
  /** a DynamoDB call's partition keys, ids and hashes as `*` (local/iam/enforcement.ts) */
  leadingKeys?: string[];
}

export interface UnusedGrantException {
  /** the principal's key (`functions/<name>/handler.ts`, `task:listener`), or `*` for every one */
  principal: string;
  /** the action as granted (a pattern, as the statement has it) */
  action: string;
  /** only the grant limited to these leading keys (a pattern, as the statement has it) */
  leadingKeys?: string;
  reason: string;
}

/** Services whose actions read or write the service's data: a grant of these must be used. */
const DATA_PLANE = [
  'dynamodb',
  's3',
  'kinesis',
  'sqs',
  'sns',
  'secretsmanager',
  'geo-places',
  'geo-routes',
  'geo-maps',
  'events',
  'scheduler',
];

const patternOf = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );

const list = (value: string | string[] | undefined): string[] => [value ?? []].flat();

/** A grant: one action of an Allow statement, on its resources, with the statement's leading-key patterns if it has any. */
interface Grant {
  action: string;
  resources: string[];
  leadingKeys: string[] | undefined;
}

const grantsOf = (statements: readonly PolicyStatement[]): Grant[] =>
  statements
    .filter((statement) => statement.Effect === 'Allow')
    .flatMap((statement) => {
      const condition = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      const leadingKeys = condition === undefined ? undefined : list(condition);
      return list(statement.Action).map((action) => ({ action, resources: list(statement.Resource), leadingKeys }));
    });

const allows = (grant: Grant, call: RecordedCall): boolean =>
  patternOf(grant.action).test(call.action) &&
  grant.resources.some((resource) => patternOf(resource).test(call.resource)) &&
  (grant.leadingKeys === undefined ||
    (call.leadingKeys ?? []).every((key) => grant.leadingKeys?.some((pattern) => patternOf(pattern).test(key))));

/**
 * The grants a call used: those that allow it, the narrowest first: a call a leading-key grant allows (a rate bucket's
 * update) uses that one, so a grant of the same action on the whole table must be used by some other call.
 */
function grantsUsedBy(grants: readonly Grant[], call: RecordedCall): Grant[] {
  const allowing = grants.filter((grant) => allows(grant, call));
  const narrow = allowing.filter((grant) => grant.leadingKeys !== undefined);
  return narrow.length > 0 ? narrow : allowing;
}

/** What is wrong, one line each: refused calls, then grants never used that no exception explains. */
export function grantProblems(principals: Principals, calls: RecordedCall[], exceptions: UnusedGrantException[]): string[] {
  const refused = calls
    .filter((call) => call.decision !== 'Allowed')
    .map((call) => `${call.principal} called ${call.action} on ${call.resource}, which its role does not allow`);
  const unused = Object.values(principals).flatMap((principal) => {
    const grants = grantsOf(principal.statements);
    const used = new Set(
      calls.filter((call) => call.principal === principal.key && call.decision === 'Allowed').flatMap((call) => grantsUsedBy(grants, call)),
    );
    const excepted = (grant: Grant) =>
      exceptions.some(
        (exception) =>
          (exception.principal === '*' || exception.principal === principal.key) &&
          exception.action === grant.action &&
          (exception.leadingKeys === undefined || grant.leadingKeys?.includes(exception.leadingKeys)),
      );
    return grants
      .filter(({ action }) => DATA_PLANE.includes(action.split(':')[0] as string))
      .filter((grant) => !used.has(grant) && !excepted(grant))
      .map(({ action, resources, leadingKeys }) => {
        const keys = leadingKeys ? ` (leading keys ${leadingKeys.join(', ')})` : '';
        return `${principal.key} is granted ${action} on ${resources.join(', ')}${keys}, which no call of the test run used`;
      });
  });
  return [...refused, ...new Set(unused)];
}

/** Grants no local run can use, each with why it is still right. */
export const UNUSED_GRANT_EXCEPTIONS: UnusedGrantException[] = [
  {
    principal: handlerPath('checkQuietVehicles'),
    action: 'dynamodb:DeleteItem',
    reason:
      "closing a silent vehicle's trip commits through the detection's transaction, which deletes the trips it replaces; the " +
      "tests' silent trips replace none (infra/positions/quiet-vehicles.ts)",
  },
  ...['addUserLocation', 'addJobCard'].map((name) => ({
    principal: handlerPath(name),
    action: 'dynamodb:DeleteItem',
    leadingKeys: keys.idempotencyRecordPattern,
    reason:
      'an idempotent create releases its claim when the handler fails; this one fails only if DynamoDB does (every create that can ' +
      'fail otherwise proves the release: test/middleware/idempotency.test.ts)',
  })),
  ...[
    'kinesis:DescribeStreamSummary',
    'kinesis:GetRecords',
    'kinesis:GetShardIterator',
    'kinesis:ListShards',
    'kinesis:SubscribeToShard',
    'kinesis:DescribeStream',
    'kinesis:ListStreams',
    'kinesis:DescribeStreamConsumer',
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:ListStreams',
    'sqs:SendMessage',
    'sqs:GetQueueAttributes',
    'sqs:GetQueueUrl',
    'sqs:ReceiveMessage',
    'sqs:ChangeMessageVisibility',
    'sqs:DeleteMessage',
  ].map((action) => ({
    principal: '*',
    action,
    reason:
      "an event source mapping's (Lambda reads the stream or queue and dead-letters with the function's role); the local " +
      "queues (local/sqs-queue.ts) check SQS's where a test enforces IAM, not in every run, and GetQueueUrl never",
  })),
  {
    principal: '*',
    action: 'secretsmanager:GetSecretValue',
    reason: "the cursor key and the providers' keys come from Secrets Manager in AWS only; locally CURSOR_KEY or a per-process key",
  },
  {
    principal: '*',
    action: 'geo-routes:CalculateRoutes',
    reason:
      "cdk.json's directionsProvider is amazon; the local stack routes with the estimate, the tests call fakes in their own emulators",
  },
  {
    principal: '*',
    action: 'geo-places:ReverseGeocode',
    reason: "cdk.json's geocodingProvider is amazon; the local stack names places with the gazetteer",
  },
  {
    principal: handlerPath('addRoute'),
    action: 's3:GetObject',
    reason: 'directions are cached only with a routing provider, which the tests configure in an emulator of their own',
  },
  {
    principal: handlerPath('addRoute'),
    action: 's3:PutObject',
    reason: 'directions are cached only with a routing provider, which the tests configure in an emulator of their own',
  },
  {
    principal: 'task:listener',
    action: 'dynamodb:GetItem',
    reason: 'the tests run the Teltonika listener in their own worker; npm start runs it as task:listener',
  },
  {
    principal: 'task:listener',
    action: 'kinesis:PutRecords',
    reason: 'the tests run the Teltonika listener in their own worker; npm start runs it as task:listener',
  },
];
