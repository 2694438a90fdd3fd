/**
 * The AWS request an SDK command makes, as IAM sees it: which action on which resource, with which condition keys.
 * One command can be several requests (a transaction's items, a batch's tables). The local account and region stand in
 * for the deployed ones, in the policies (local/iam/principals.ts) as in the requests.
 */
import { tableDefinition } from '../../shared/store/table-definition.ts';

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export interface AwsRequest {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

type Input = Record<string, any>;

/** An SDK client's IAM service prefix, by the client's name (`DynamoDBClient`). */
const servicePrefixes: Record<string, string> = {
  DynamoDBClient: 'dynamodb',
  DynamoDBStreamsClient: 'dynamodb',
  S3Client: 's3',
  KinesisClient: 'kinesis',
  SecretsManagerClient: 'secretsmanager',
  GeoPlacesClient: 'geo-places',
  GeoRoutesClient: 'geo-routes',
  GeoMapsClient: 'geo-maps',
  SQSClient: 'sqs',
  SNSClient: 'sns',
  EventBridgeClient: 'events',
  SchedulerClient: 'scheduler',
  LambdaClient: 'lambda',
  CloudWatchClient: 'cloudwatch',
  SSMClient: 'ssm',
};

const region = LOCAL_REGION;
const account = LOCAL_ACCOUNT;
const tableArn = (name: string): string => `arn:aws:dynamodb:${region}:${account}:table/${name}`;

/** The requests of one command of one client. */
export function awsRequestsOf(clientName: string, commandName: string, input: Input): AwsRequest[] {
  const prefix = servicePrefixes[clientName] ?? clientName.replace(/Client$/, '').toLowerCase();
  const operation = commandName.replace(/Command$/, '');
  const request = (action: string, resource: string, context: AwsRequest['context'] = {}): AwsRequest => ({
    action: `${prefix}:${action}`,
    resource,
    context,
  });
  switch (prefix) {
    case 'dynamodb':
      return dynamoDbRequests(operation, input, request);
    case 's3':
      return s3Requests(operation, input, request);
    case 'kinesis':
      return [request(operation, input.StreamARN ?? `arn:aws:kinesis:${region}:${account}:stream/${input.StreamName}`)];
    case 'secretsmanager':
      return [request(operation, secretArn(String(input.SecretId ?? '*')))];
    case 'geo-places':
    case 'geo-routes':
    case 'geo-maps':
      // The standalone Amazon Location APIs act on the region's AWS-managed provider.
      return [request(operation, `arn:aws:${prefix}:${region}::provider/default`)];
    case 'sqs':
      // IAM has no batch actions: a batch call is its single action's (SendMessageBatch is sqs:SendMessage)
      return [request(operation.replace(/Batch$/, ''), queueArn(input.QueueUrl))];
    case 'sns':
      return [request(operation, input.TopicArn ?? '*')];
    case 'events':
      return (input.Entries ?? [{}]).map((entry: Input) =>
        request(operation, `arn:aws:events:${region}:${account}:event-bus/${entry.EventBusName ?? input.Name ?? 'default'}`),
      );
    case 'lambda':
      return [request(operation, `arn:aws:lambda:${region}:${account}:function:${input.FunctionName}`)];
    default:
      return [request(operation, '*')];
  }
}

type Request = (action: string, resource: string, context?: AwsRequest['context']) => AwsRequest;

/** An attribute value in either form: the document client's plain one or the marshalled `{ S: ... }`. */
const plain = (value: unknown): string => String((value as Input)?.S ?? (value as Input)?.N ?? value);

/** `dynamodb:LeadingKeys`: the partition key values of the items a request touches. */
const leadingKeys = (items: Input[]): AwsRequest['context'] => ({
  'dynamodb:LeadingKeys': [...new Set(items.map((item) => plain(item?.[tableDefinition.partitionKey])))],
});

/** The partition key value a Query's key condition names (`pk = :pk` or through an attribute name), if it can be read. */
function queriedPartitionKey(input: Input): Input[] {
  const index = tableDefinition.indexes.find((candidate) => candidate.name === input.IndexName);
  const attribute = index?.partitionKey ?? tableDefinition.partitionKey;
  for (const [, name, placeholder] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const resolved = name?.startsWith('#') ? input.ExpressionAttributeNames?.[name] : name;
    if (resolved === attribute) return [{ [tableDefinition.partitionKey]: input.ExpressionAttributeValues?.[placeholder as string] }];
  }
  return [];
}

/** What IAM checks for each DynamoDB API (the DynamoDB API permissions reference): a transaction per item and action. */
function dynamoDbRequests(operation: string, input: Input, request: Request): AwsRequest[] {
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [request(operation, tableArn(input.TableName), leadingKeys([input.Key]))];
    case 'PutItem':
      return [request(operation, tableArn(input.TableName), leadingKeys([input.Item]))];
    case 'BatchGetItem':
      return Object.entries<Input>(input.RequestItems ?? {}).map(([table, { Keys }]) =>
        request(operation, tableArn(table), leadingKeys(Keys ?? [])),
      );
    case 'BatchWriteItem':
      return Object.entries<Input[]>(input.RequestItems ?? {}).map(([table, writes]) =>
        request(operation, tableArn(table), leadingKeys(writes.map((write) => write.PutRequest?.Item ?? write.DeleteRequest?.Key))),
      );
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((item: Input) => {
        const [kind, detail] = Object.entries<Input>(item)[0] as [string, Input];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind];
        return request(action ?? kind, tableArn(detail.TableName), leadingKeys([detail.Item ?? detail.Key]));
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map(({ Get }: Input) => request('GetItem', tableArn(Get.TableName), leadingKeys([Get.Key])));
    case 'Query':
    case 'Scan': {
      const resource = input.IndexName ? `${tableArn(input.TableName)}/index/${input.IndexName}` : tableArn(input.TableName);
      return [request(operation, resource, operation === 'Query' ? leadingKeys(queriedPartitionKey(input)) : {})];
    }
    default:
      return [request(operation, input.StreamArn ?? (input.TableName ? tableArn(input.TableName) : '*'))];
  }
}

/** S3's actions are not its API names: ListObjectsV2 is s3:ListBucket on the bucket, HeadObject s3:GetObject on the object. */
function s3Requests(operation: string, input: Input, request: Request): AwsRequest[] {
  const object = `arn:aws:s3:::${input.Bucket}/${input.Key}`;
  const bucket = `arn:aws:s3:::${input.Bucket}`;
  switch (operation) {
    case 'GetObject':
    case 'HeadObject':
      return [request('GetObject', object)];
    case 'PutObject':
    case 'CreateMultipartUpload':
    case 'UploadPart':
    case 'CompleteMultipartUpload':
      return [request('PutObject', object)];
    case 'CopyObject':
      return [request('PutObject', object), request('GetObject', `arn:aws:s3:::${String(input.CopySource).replace(/^\//, '')}`)];
    case 'DeleteObject':
      return [request('DeleteObject', object)];
    case 'DeleteObjects':
      return (input.Delete?.Objects ?? []).map(({ Key }: Input) => request('DeleteObject', `${bucket}/${Key}`));
    case 'ListObjectsV2':
    case 'ListObjects':
    case 'HeadBucket':
      return [request('ListBucket', bucket, input.Prefix === undefined ? {} : { 's3:prefix': input.Prefix })];
    default:
      return [request(operation, input.Key === undefined ? bucket : object)];
  }
}

/** A secret's ARN from its id: the ARN as given, or a name with the six characters Secrets Manager appends. */
const secretArn = (id: string): string => (id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${region}:${account}:secret:${id}-LOCAL0`);

/** https://sqs.<region>.amazonaws.com/<account>/<name> (or a local endpoint's URL of the same shape) → the queue's ARN. */
const queueArn = (url: unknown): string =>
  `arn:aws:sqs:${region}:${account}:${String(url ?? '')
    .split('/')
    .pop()}`;
