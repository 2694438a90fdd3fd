import { describe, expect, it } from 'vitest';
import { awsRequestsOf } from '../../local/iam/arns.ts';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/fleet';

describe('the IAM requests of an SDK command', () => {
  it('checks each transaction item with its own action, table and partition key', () => {
    // Act
    const requests = awsRequestsOf('DynamoDBClient', 'TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { TableName: 'fleet', Item: { pk: { S: 'USER#1' } } } },
        { Update: { TableName: 'fleet', Key: { pk: 'RATE#k' } } },
        { Delete: { TableName: 'fleet', Key: { pk: 'USER#1' } } },
        { ConditionCheck: { TableName: 'fleet', Key: { pk: 'IMEI#1' } } },
      ],
    });
    // Assess
    expect(requests).toEqual([
      { action: 'dynamodb:PutItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['USER#1'] } },
      { action: 'dynamodb:UpdateItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['RATE#k'] } },
      { action: 'dynamodb:DeleteItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['USER#1'] } },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['IMEI#1'] } },
    ]);
  });

  it('checks a batch write as BatchWriteItem with every partition key it writes', () => {
    // Act
    const [request] = awsRequestsOf('DynamoDBClient', 'BatchWriteItemCommand', {
      RequestItems: { fleet: [{ PutRequest: { Item: { pk: 'A' } } }, { DeleteRequest: { Key: { pk: 'B' } } }] },
    });
    // Assess
    expect(request).toEqual({ action: 'dynamodb:BatchWriteItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': ['A', 'B'] } });
  });

  it("checks a Query on an index against the index's ARN, with the key it names", () => {
    // Act
    const [request] = awsRequestsOf('DynamoDBClient', 'QueryCommand', {
      TableName: 'fleet',
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeNames: { '#pk': 'gsi1pk' },
      ExpressionAttributeValues: { ':pk': 'IMEI#1', ':prefix': 'X' },
    });
    // Assess
    expect(request).toMatchObject({ action: 'dynamodb:Query', resource: `${TABLE}/index/gsi1` });
  });

  it('checks S3 by its IAM actions: a listing is ListBucket on the bucket, a put PutObject on the object', () => {
    // Act
    const listing = awsRequestsOf('S3Client', 'ListObjectsV2Command', { Bucket: 'b', Prefix: 'positions/' });
    const put = awsRequestsOf('S3Client', 'PutObjectCommand', { Bucket: 'b', Key: 'positions/1.json' });
    // Assess
    expect(listing).toEqual([{ action: 's3:ListBucket', resource: 'arn:aws:s3:::b', context: { 's3:prefix': 'positions/' } }]);
    expect(put).toEqual([{ action: 's3:PutObject', resource: 'arn:aws:s3:::b/positions/1.json', context: {} }]);
  });

  it('checks Kinesis, Secrets Manager and Amazon Location on their resources', () => {
    // Act
    const requests = [
      ...awsRequestsOf('KinesisClient', 'PutRecordsCommand', { StreamName: 'positions' }),
      ...awsRequestsOf('SecretsManagerClient', 'GetSecretValueCommand', { SecretId: 'fleet/key' }),
      ...awsRequestsOf('GeoPlacesClient', 'ReverseGeocodeCommand', {}),
    ];
    // Assess
    expect(requests.map(({ action, resource }) => [action, resource])).toEqual([
      ['kinesis:PutRecords', 'arn:aws:kinesis:us-east-1:000000000000:stream/positions'],
      ['secretsmanager:GetSecretValue', 'arn:aws:secretsmanager:us-east-1:000000000000:secret:fleet/key-LOCAL0'],
      ['geo-places:ReverseGeocode', 'arn:aws:geo-places:us-east-1::provider/default'],
    ]);
  });
});

describe('the IAM requests of an SQS command', () => {
  it.each([
    ['SendMessageBatchCommand', 'sqs:SendMessage'],
    ['SendMessageCommand', 'sqs:SendMessage'],
    ['DeleteMessageBatchCommand', 'sqs:DeleteMessage'],
    ['ChangeMessageVisibilityBatchCommand', 'sqs:ChangeMessageVisibility'],
    ['ReceiveMessageCommand', 'sqs:ReceiveMessage'],
  ])("checks %s as %s (IAM has no batch actions) on the queue's ARN", (command, action) => {
    // Act
    const requests = awsRequestsOf('SQSClient', command, { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/webhook-retries' });
    // Assess
    expect(requests).toEqual([{ action, resource: 'arn:aws:sqs:us-east-1:000000000000:webhook-retries', context: {} }]);
  });
});
