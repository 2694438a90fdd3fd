import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';

/** Integer ids come from one atomic counter per entity type: global, increasing, never reused. */
export async function nextId(entity: string): Promise<number> {
  return (await nextIds(entity, 1))[0] as number;
}

/** `count` consecutive ids in one request (the pipeline numbers a batch's trips and fills at once). */
export async function nextIds(entity: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** The last id an entity's counter gave (0 before the first): ids 1 to it are every id there has been. */
export async function lastId(entity: string): Promise<number> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.counter(entity), ConsistentRead: true }));
  return Number(Item?.value ?? 0);
}
