/**
 * The per-key limit where DynamoDB Local cannot go on demand: a whole operation's chain in-process, with
 * aws-sdk-client-mock answering the key lookup, the bucket's writes and the operation's own requests, so a bucket
 * write can fail, or answer late, while the operation's requests succeed. A read runs alongside its bucket write, a
 * write after it; either way the limit fails closed: the answer is the error mapper's for the fault, never the read's
 * data, and still says when to retry.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler as addExpenseType } from '../../functions/addExpenseType/handler.ts';
import { handler as getExpenseTypes } from '../../functions/getExpenseTypes/handler.ts';
import { rateLimitDefaults } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { intervalMs } from '../../shared/domain/token-bucket.ts';
import { keys } from '../../shared/store/keys.ts';
import { timedOut } from '../support/dynamodb-faults.ts';
import { aContext, anEvent } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => dynamo.restore());
const KEY = 'k3y-of-the-rate-limited-user';
const BUCKET = keys.rateBucket(hashApiKey(KEY));

beforeEach(() => {
  dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: { user_uid: 42, gmt_offset_minutes: 0, locked: false } });
  dynamo.on(QueryCommand).resolves({ Items: [] });
});
afterEach(() => dynamo.reset());

const listTypes = () => getExpenseTypes(anEvent({ query: `api_key=${KEY}` }), aContext()) as Promise<APIGatewayProxyResult>;
const addType = () =>
  addExpenseType(
    anEvent({ operation: 'addExpenseType', method: 'POST', query: `api_key=${KEY}&expense_name=Tolls` }),
    aContext('addExpenseType'),
  ) as Promise<APIGatewayProxyResult>;
const bodyOf = (result: APIGatewayProxyResult) => JSON.parse(result.body) as Record<string, unknown>;
const bucketWrites = () => dynamo.commandCalls(UpdateCommand, { Key: BUCKET }).length;

/** A bucket write that passed, leaving the bucket one request down. */
const passedWrite = () => ({ Attributes: { tat: Date.now() + intervalMs(rateLimitDefaults) } });

/** How a write whose condition failed comes back: the stored item, in DynamoDB's own format. */
const conditionFailed = (tat: number) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: { tat: { N: String(tat) } } });

/** A bucket drained for `ms` more: its TAT past the burst, so every write's condition fails. */
const drainedFor = (ms: number) => conditionFailed(Date.now() + rateLimitDefaults.burst * intervalMs(rateLimitDefaults) + ms);

const throttled = () => new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds', $metadata: {} });

/**
 * The order things happened in, with a bucket write that answers only a few event-loop turns after it was sent, so
 * whatever the chain sends without waiting for it is sent before it answers.
 */
function givenSlowBucket(answer: () => Promise<unknown>) {
  const order: string[] = [];
  dynamo.on(UpdateCommand, { Key: BUCKET }).callsFake(async () => {
    order.push('bucket write sent');
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    order.push('bucket write answered');
    return answer();
  });
  dynamo.on(QueryCommand).callsFake(async () => {
    order.push('query sent');
    return { Items: [] };
  });
  dynamo.on(TransactWriteCommand).callsFake(async () => {
    order.push('transaction sent');
    return {};
  });
  dynamo.on(UpdateCommand, { Key: keys.counter('expense-type') }).resolves({ Attributes: { value: 1 } });
  return order;
}

describe('a read and its bucket write', () => {
  it("sends the read's own query before its bucket write has answered", async () => {
    // Prepare
    const order = givenSlowBucket(async () => passedWrite());
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(200);
    expect(order).toEqual(['bucket write sent', 'query sent', 'bucket write answered']);
  });

  it('answers 429 with Retry-After and nothing it read when the bucket refuses it meanwhile', async () => {
    // Prepare
    const order = givenSlowBucket(() => Promise.reject(drainedFor(5_000)));
    // Act
    const result = await listTypes();
    // Assess
    expect(order).toContain('query sent');
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).toEqual({
      version: expect.any(String),
      result: 'error',
      error_msg: 'too many requests for this api key, retry later',
    });
    expect(Number(result.headers?.['Retry-After'])).toBeGreaterThanOrEqual(5);
    expect(result.headers?.RateLimit).toMatch(/^"default";r=0;t=\d+$/);
  });

  it('answers the refusal, not its own error, when the read fails while the bucket refuses it', async () => {
    // Prepare
    dynamo.on(UpdateCommand, { Key: BUCKET }).rejects(drainedFor(5_000));
    dynamo.on(QueryCommand).rejects(new Error('connection reset'));
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result).error_msg).toBe('too many requests for this api key, retry later');
  });
});

describe('a write and its bucket write', () => {
  it('sends nothing of its own until its bucket write has answered', async () => {
    // Prepare
    const order = givenSlowBucket(async () => passedWrite());
    dynamo.on(GetCommand, { Key: keys.expenseTypeName(42, 'Tolls') }).callsFake(async () => {
      order.push('name claim read');
      return {};
    });
    // Act
    const result = await addType();
    // Assess
    expect(result.statusCode).toBe(200);
    expect(order).toEqual(['bucket write sent', 'bucket write answered', 'name claim read', 'transaction sent']);
  });

  it('changes nothing when the bucket refuses it', async () => {
    // Prepare
    dynamo.on(UpdateCommand, { Key: BUCKET }).rejects(drainedFor(5_000));
    // Act
    const result = await addType();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('the per-key limit when its write fails', () => {
  it('answers a throttled bucket 429 with Retry-After, and a read nothing it read: a key flooding its own item is refused', async () => {
    // Prepare
    dynamo.on(UpdateCommand, { Key: BUCKET }).rejects(throttled());
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).not.toHaveProperty('expense_types');
    expect(bodyOf(result).error_msg).toBe('request throttled, retry later');
    expect(result.headers).toMatchObject({ 'Retry-After': '1', 'RateLimit-Policy': '"default";q=300;w=2' });
  });

  it('answers DynamoDB not answering the bucket 503 though the read succeeded, without an allowance it does not know', async () => {
    // Prepare
    dynamo.on(UpdateCommand, { Key: BUCKET }).rejects(timedOut('socket timed out'));
    // Act
    const result = await listTypes();
    // Assess
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).not.toHaveProperty('expense_types');
    expect(bodyOf(result).error_msg).toBe('service unavailable, retry later');
    expect(result.headers?.RateLimit).toBeUndefined();
  });

  it('counts a request whose refill another beat to the idle bucket: its third write drains it, judged at the same instant', async () => {
    // Prepare: the first write finds the bucket idle, the refill finds it just refilled, the drain passes
    const now = Date.now();
    dynamo
      .on(UpdateCommand, { Key: BUCKET })
      .rejectsOnce(conditionFailed(now - 1_000))
      .rejectsOnce(conditionFailed(now + 7))
      .resolvesOnce(passedWrite());
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(200);
    const writes = dynamo.commandCalls(UpdateCommand, { Key: BUCKET }).map((call) => call.args[0].input);
    expect(writes).toHaveLength(3);
    expect(writes.at(-1)?.ConditionExpression).toContain('BETWEEN');
    expect(new Set(writes.map((input) => input.ExpressionAttributeValues?.[':now']))).toHaveProperty('size', 1);
  });

  it('refuses a request still without a verdict after four writes that each found the bucket moved on', async () => {
    // Prepare: every write finds the bucket on the other side of now than it tried
    const now = Date.now();
    dynamo
      .on(UpdateCommand, { Key: BUCKET })
      .rejectsOnce(conditionFailed(now - 1_000))
      .rejectsOnce(conditionFailed(now + 7))
      .rejectsOnce(conditionFailed(now - 1_000))
      .rejectsOnce(conditionFailed(now + 7));
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).not.toHaveProperty('expense_types');
    expect(bucketWrites()).toBe(4);
  });

  it("adds Retry-After to AWS throttling the operation's own query, with what the key has left", async () => {
    // Prepare
    dynamo.on(UpdateCommand, { Key: BUCKET }).resolves(passedWrite());
    dynamo.on(QueryCommand).rejects(throttled());
    // Act
    const result = await listTypes();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({ 'Retry-After': '1', RateLimit: `"default";r=${rateLimitDefaults.burst - 1};t=1` });
  });
});
