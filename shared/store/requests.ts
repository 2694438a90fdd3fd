/** Paging and batching the store's repositories share: lists return everything, never one page. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, QueryCommand, type QueryCommandInput, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import type { Key, Range } from './keys.ts';

export type Item = Record<string, unknown>;

export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (input.Limit === undefined || items.length < input.Limit));
  return items;
}

/** Items of a partition whose sort key starts with a prefix. */
export function queryPrefix(pk: string, skPrefix: string): Promise<Item[]> {
  return queryRange({ pk, prefix: skPrefix });
}

/** Every item of a key range (keys.ts builds them), in sort-key order unless `newestFirst`. */
export function queryRange(range: Range, options: Pick<QueryCommandInput, 'ScanIndexForward' | 'Limit' | 'ConsistentRead'> = {}): Promise<Item[]> {
  const { index, pk, prefix, from, to } = range;
  const bound =
    prefix !== undefined
      ? 'begins_with(#sk, :prefix)'
      : from !== undefined && to !== undefined
        ? '#sk BETWEEN :from AND :to'
        : from !== undefined
          ? '#sk >= :from'
          : to !== undefined
            ? '#sk <= :to'
            : undefined;
  const values = Object.entries({ ':pk': pk, ':prefix': prefix, ':from': from, ':to': to }).filter(([, value]) => value !== undefined);
  return queryAll({
    ...options,
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: bound ? `#pk = :pk AND ${bound}` : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index ? 'gsi1pk' : 'pk', ...(bound ? { '#sk': index ? 'gsi1sk' : 'sk' } : {}) },
    ExpressionAttributeValues: Object.fromEntries(values),
  });
}

const BATCH_GET_LIMIT = 100;

/** BatchGetItem over any number of keys, in parallel chunks, retrying unprocessed keys; one round trip when under 100. */
export async function batchGet(itemKeys: Key[]): Promise<Item[]> {
  const chunks: Key[][] = [];
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_LIMIT) chunks.push(itemKeys.slice(i, i + BATCH_GET_LIMIT));
  const results = await Promise.all(chunks.map((chunk) => batchGetChunk(chunk)));
  return results.flat();
}

async function batchGetChunk(chunk: Key[]): Promise<Item[]> {
  const items: Item[] = [];
  let pending: Key[] = chunk;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
    const { Responses, UnprocessedKeys } = await dynamo().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }),
    );
    items.push(...(Responses?.[tableName()] ?? []));
    pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    if (attempt > 8 && pending.length > 0) throw new Error('BatchGetItem left keys unprocessed after retries');
  }
  return items;
}

/** For each item of a cancelled transaction, whether its condition failed. */
export function failedConditions(error: unknown): boolean[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code === 'ConditionalCheckFailed');
}

export const itemKey = (item: Item | Key): string => `${String(item.pk)}|${String(item.sk)}`;

/**
 * SET expression for the fields given: undefined fields are left out, so an edit keeps what it omits.
 * Returns undefined when there is nothing to change.
 */
export function setExpression(fields: Record<string, unknown>) {
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (present.length === 0) return undefined;
  return {
    UpdateExpression: `SET ${present.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(present.map(([name], i) => [`#f${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(present.map(([, value], i) => [`:v${i}`, value])),
  };
}

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * In AWS, transactions racing for one item cancel each other with TransactionConflict (DynamoDB Local
 * serializes them instead); a short jittered retry then meets the winner's write as a failed condition.
 */
export async function transactWrite(items: TransactItems, attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const raced =
        error instanceof TransactionCanceledException &&
        (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
      if (!raced || attempt === attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}
