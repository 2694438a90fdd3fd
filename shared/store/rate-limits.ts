/** Per-api-key request counters in fixed windows; DynamoDB's TTL removes a window's counter a minute after it ends. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { tableDefinition } from './table-definition.ts';

/** Counts one request in the key's current window and answers how many the window now holds. */
export async function countRequest(keyHash: string, windowS: number, nowMs = Date.now()): Promise<number> {
  const windowStart = Math.floor(nowMs / 1000 / windowS) * windowS;
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateWindow(keyHash, windowStart),
      UpdateExpression: 'ADD requests :one SET #ttl = :expires',
      ExpressionAttributeNames: { '#ttl': tableDefinition.ttlAttribute },
      ExpressionAttributeValues: { ':one': 1, ':expires': windowStart + windowS + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.requests ?? 1);
}
