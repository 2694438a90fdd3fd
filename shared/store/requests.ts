/**
 * Paging, batching and conditional writing the store's repositories share: lists return everything, never one
 * page; a failed condition is recognised in one place (isConditionFailed) and edits of an existing record go
 * through one optimistic retry (writeWithOptimisticRetry).
 */
import { isDeepStrictEqual } from 'node:util';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { Conflict } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import type { Key, Range } from './keys.ts';
import { tableDefinition } from './table-definition.ts';

export type Item = Record<string, unknown>;

/** Every item of a key range (keys.ts builds them), or its first `Limit`; in sort-key order unless `ScanIndexForward` is false. */
export async function queryRange(
  range: Range,
  options: Pick<QueryCommandInput, 'ScanIndexForward' | 'Limit' | 'ConsistentRead'> = {},
): Promise<Item[]> {
  const { Limit: limit } = options;
  return (await queryWhile(range, (items) => limit === undefined || items.length < limit, options)).items;
}

/**
 * The items of a key range, one Query page at a time for as long as `goOn` asks for another (given the items so far):
 * a read that may stop before the range ends. `more` says items were left unread.
 */
export async function queryWhile(
  range: Range,
  goOn: (items: readonly Item[]) => boolean,
  options: Pick<QueryCommandInput, 'ScanIndexForward' | 'Limit' | 'ConsistentRead'> = {},
): Promise<{ items: Item[]; more: boolean }> {
  const input = rangeQuery(range, options);
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && goOn(items));
  return { items, more: startKey !== undefined };
}

/** Where a paged read resumes: the key (table and index) of the last item a page answered. */
export type ItemPosition = Record<string, string>;

/** Says whether it took the item; false stops the read. */
export type Visit = (item: Item, position: ItemPosition) => boolean;

/**
 * The items of a key range one page at a time, after `after` when given, each handed to `visit` until it says no: an
 * answer that is full, or too large, stops reading there instead of after the last page. With `most` (the most items
 * the visitor takes), each Query asks for one item more than the visitor can still take, enough to tell whether more
 * exist, rather than a whole 1 MB page whose read units a page of 10 paid in full. Returns whether it stopped early.
 */
export async function readRange(
  range: Range,
  visit: Visit,
  options: Pick<QueryCommandInput, 'ScanIndexForward' | 'ConsistentRead'> & { after?: ItemPosition | undefined; most?: number } = {},
): Promise<boolean> {
  const { after, most, ...queryOptions } = options;
  const input = rangeQuery(range, queryOptions);
  const positionOf = positionReader(range);
  let startKey: Record<string, unknown> | undefined = after;
  let visited = 0;
  do {
    const Limit = most === undefined || !Number.isFinite(most) ? undefined : Math.max(most + 1 - visited, 1);
    const page = await dynamo().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey, Limit }));
    for (const item of page.Items ?? []) {
      visited++;
      if (!visit(item, positionOf(item))) return true;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return false;
}

/**
 * A paged read's consumer: `take` says whether the record fits the answer; `after` is where the page starts; `most`,
 * when known, is the most records `take` will accept (the answer's limit), so the read need not fetch more.
 */
export interface PagedRead<T> {
  take: (record: T, position: ItemPosition) => boolean;
  after?: ItemPosition | undefined;
  most?: number;
}

/** The records of a key range that `read` took, in order, reading no further than the first it refused. */
export async function readTaken<T>(
  range: Range,
  fromItem: (item: Item) => T,
  read: PagedRead<T>,
  options: Pick<QueryCommandInput, 'ScanIndexForward' | 'ConsistentRead'> = {},
): Promise<T[]> {
  const taken: T[] = [];
  await readRange(
    range,
    (item, position) => {
      const record = fromItem(item);
      if (!read.take(record, position)) return false;
      taken.push(record);
      return true;
    },
    { ...options, after: read.after, most: read.most },
  );
  return taken;
}

/** The key attributes of the table, or of the index a range reads. */
const keyNamesOf = (index: Range['index']): { pk: string; sk: string } => {
  const found = tableDefinition.indexes.find((definition) => definition.name === index);
  return found ? { pk: found.partitionKey, sk: found.sortKey } : { pk: tableDefinition.partitionKey, sk: tableDefinition.sortKey };
};

/** An item's position in the range's order: its key attributes, named once per read rather than once per item. */
const positionReader = (range: Range): ((item: Item) => ItemPosition) => {
  const names = range.index ? ['pk', 'sk', keyNamesOf(range.index).pk, keyNamesOf(range.index).sk] : ['pk', 'sk'];
  return (item) => {
    const position: ItemPosition = {};
    for (const name of names) position[name] = String(item[name]);
    return position;
  };
};

function rangeQuery(range: Range, options: Pick<QueryCommandInput, 'ScanIndexForward' | 'Limit' | 'ConsistentRead'>) {
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
  return {
    ...options,
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: bound ? `#pk = :pk AND ${bound}` : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': keyNamesOf(index).pk, ...(bound ? { '#sk': keyNamesOf(index).sk } : {}) },
    ExpressionAttributeValues: Object.fromEntries(values),
  };
}

const BATCH_GET_LIMIT = 100;

/**
 * BatchGetItem over any number of keys, in parallel chunks, retrying unprocessed keys; one round trip when under 100.
 * Each key is asked for once (BatchGetItem refuses a request naming one twice), so each item is answered once.
 * `consistent` reads strongly consistently (what a write conditioned on the values read needs).
 */
export async function batchGet(itemKeys: Key[], { consistent = false }: { consistent?: boolean } = {}): Promise<Item[]> {
  const distinct = [...new Map(itemKeys.map((key) => [itemKey(key), key])).values()];
  const chunks: Key[][] = [];
  for (let i = 0; i < distinct.length; i += BATCH_GET_LIMIT) chunks.push(distinct.slice(i, i + BATCH_GET_LIMIT));
  const results = await Promise.all(chunks.map((chunk) => batchGetChunk(chunk, consistent)));
  return results.flat();
}

async function batchGetChunk(chunk: Key[], consistent: boolean): Promise<Item[]> {
  const items: Item[] = [];
  let pending: Key[] = chunk;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
    const { Responses, UnprocessedKeys } = await dynamo().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } } }),
    );
    items.push(...(Responses?.[tableName()] ?? []));
    pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    if (attempt > 8 && pending.length > 0) throw new Error('BatchGetItem left keys unprocessed after retries');
  }
  return items;
}

/**
 * For each item of a cancelled transaction, whether it lost (its condition failed, or a transaction in flight on it
 * won); undefined for any other error.
 */
export function lostItems(error: unknown): boolean[] | undefined {
  return cancellationCodes(error)?.map((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict');
}

/** For each item of a cancelled transaction, whether its condition failed; undefined for any other error. */
export function failedConditions(error: unknown): boolean[] | undefined {
  return cancellationCodes(error)?.map((code) => code === 'ConditionalCheckFailed');
}

/**
 * Whether DynamoDB refused a write because one of its conditions failed: a single write's
 * ConditionalCheckFailedException, or a transaction cancelled with at least one ConditionalCheckFailed reason.
 * Recognised by name, as the error may come from another module instance of the SDK than this one.
 * This is the store's one test for a failed condition.
 */
export function isConditionFailed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ConditionalCheckFailedException' || (failedConditions(error)?.some(Boolean) ?? false);
}

/** A write that lost against a transaction in flight on the same item (AWS only; DynamoDB Local serializes). */
function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'TransactionConflictException' || (cancellationCodes(error)?.includes('TransactionConflict') ?? false);
}

function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (reasons ?? []).map((reason) => reason.Code);
}

/**
 * Puts an item that must not exist yet. The SDK retries a put whose answer was lost (a timeout after the write
 * landed), and the retry's condition then fails on the very item its first attempt wrote: that item given back
 * (ReturnValuesOnConditionCheckFailure) is this put's success. Any other item under the key is the
 * ConditionalCheckFailedException it was.
 */
export async function putNewItem(item: Item): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    const found = (error as { Item?: Record<string, AttributeValue> }).Item;
    if (isConditionFailed(error) && found && isDeepStrictEqual(unmarshall(found), item)) return;
    throw error;
  }
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
      if (!isTransactionConflict(error) || attempt === attempts) throw error;
      await backOff(attempt);
    }
  }
}

/**
 * Enough for ten requests editing one record at once: every round one of them commits, so the last one
 * commits by its tenth read at the latest, and the jitter spreads the rounds out well before that.
 */
export const OPTIMISTIC_ATTEMPTS = 12;

/** One edit of an existing record, as writeWithOptimisticRetry runs it. */
export interface OptimisticEdit<Current, Result> {
  /**
   * Reads the record as it is now. Throws the operation's NotFound when the record is gone (or not the
   * user's), which ends the edit: that is how a retry tells "deleted meanwhile" from "changed meanwhile".
   */
  read: () => Promise<Current>;
  /**
   * Writes, conditioned on what `read` returned (a revision, the name or tag read, the item's existence), so
   * that a change committed in between makes the condition fail instead of being overwritten or undone.
   */
  write: (current: Current) => Promise<Result>;
  /**
   * For a failed condition that a fresh read cannot cure, such as a uniqueness claim another record holds:
   * the error to answer (the documented 409). Undefined, or no `refuse`, means the read went stale: read again.
   */
  refuse?: (error: unknown, current: Current) => Error | undefined;
  /** The 409 message for a record that kept changing through every attempt. */
  busyMessage: string;
}

/**
 * Optimistic concurrency for edits and deletes of one existing record: read it, write conditioned on what was
 * read, and when the condition fails because a concurrent request changed the record, read it again and build
 * the write anew, up to OPTIMISTIC_ATTEMPTS times. A concurrent change is never answered as "not found": only
 * a read that finds the record gone answers NotFound (the read's own error); a record still there after the
 * last attempt answers Conflict(busyMessage). Errors other than a failed condition or a transaction conflict
 * pass through unchanged.
 */
export async function writeWithOptimisticRetry<Current, Result>(edit: OptimisticEdit<Current, Result>): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const current = await edit.read();
    try {
      return await edit.write(current);
    } catch (error) {
      if (!isConditionFailed(error) && !isTransactionConflict(error)) throw error;
      const refusal = isConditionFailed(error) ? edit.refuse?.(error, current) : undefined;
      if (refusal) throw refusal;
      if (attempt === OPTIMISTIC_ATTEMPTS) {
        await edit.read();
        throw new Conflict(edit.busyMessage, { cause: error });
      }
      await backOff(attempt);
    }
  }
}

/** Jittered, growing pause between attempts, so racing requests do not meet again in lockstep. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)));
