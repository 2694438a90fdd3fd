import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../shared/store/table-definition.ts';

/**
 * Creates the table on DynamoDB Local from the same definition the CDK stack uses. `stream: false` leaves out the
 * stream that feeds the webhook router, for a stack that delivers none: DynamoDB Local looks a table's stream up on
 * every request to it, in a query that grows with every record any stream of its database holds, and it answers
 * one query at a time (docs/testing.md, "DynamoDB Local's streams").
 */
export async function ensureTable(endpoint: string, tableName: string, { stream = true }: { stream?: boolean } = {}): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    if (!(await tableExists(client, tableName))) await createTable(client, tableName, stream);
    else {
      if (stream) await enableStream(client, tableName);
      await addMissingIndexes(client, tableName);
    }
  } finally {
    client.destroy();
  }
}

/** A table made before the stream fed the webhook router (an older .local/) gets its stream now. */
async function enableStream(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.stream } }),
  );
}

async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/** A table kept in .local/ from before an index was added gets it, as CloudFormation adds it to a deployed table. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of tableDefinition.indexes.filter(({ name }) => !present.has(name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [{ Create: indexOf(index) }],
      }),
    );
  }
}

const indexOf = (index: (typeof tableDefinition.indexes)[number]) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: index.projection },
});

async function createTable(client: DynamoDBClient, tableName: string, withStream: boolean): Promise<void> {
  const { partitionKey, sortKey, indexes, ttlAttribute, stream } = tableDefinition;
  const keyNames = [partitionKey, sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexes.map(indexOf),
      ...(withStream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } : {}),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }),
  );
}
