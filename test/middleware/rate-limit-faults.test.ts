/**
 * The per-key limit when its write fails, which DynamoDB Local cannot do on demand: a whole operation's chain
 * in-process, with aws-sdk-client-mock answering the key lookup, the bucket's writes and the operation's query.
 * The limit fails closed: the answer is the error mapper's for the fault, and still says when to retry.
 */
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/getExpenseTypes/handler.ts';
import { rateLimitDefaults } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { keys } from '../../shared/store/keys.ts';
import { timedOut } from '../support/dynamodb-faults.ts';
import { aContext, anEvent } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const KEY = 'k3y-of-the-rate-limited-user';

beforeEach(() => {
  dynamo.on(GetCommand).resolves({ Item: { ...keys.apiKey(hashApiKey(KEY)), user_uid: 42, gmt_offset_minutes: 0, locked: false } });
  dynamo.on(QueryCommand).resolves({ Items: [] });
});
afterEach(() => dynamo.reset());

const call = () => handler(anEvent({ query: `api_key=${KEY}` }), aContext()) as Promise<APIGatewayProxyResult>;
const errorOf = (result: APIGatewayProxyResult) => JSON.parse(result.body).error_msg;
const bucketWrites = () => dynamo.commandCalls(UpdateCommand).length;

/** How a write whose condition failed comes back: the stored item, in DynamoDB's own format. */
const conditionFailed = (tat: number) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: { tat: { N: String(tat) } } });

describe('the per-key limit when its write fails', () => {
  it('answers a throttled bucket 429 with Retry-After: a key flooding its own item is refused, not let through', async () => {
    // Prepare
    dynamo.on(UpdateCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds', $metadata: {} }));
    // Act
    const result = await call();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(errorOf(result)).toBe('request throttled, retry later');
    expect(result.headers).toMatchObject({ 'Retry-After': '1', 'RateLimit-Policy': '"default";q=300;w=2' });
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('answers DynamoDB not answering the bucket 503, without an allowance it does not know', async () => {
    // Prepare
    dynamo.on(UpdateCommand).rejects(timedOut('socket timed out'));
    // Act
    const result = await call();
    // Assess
    expect(result.statusCode).toBe(503);
    expect(errorOf(result)).toBe('service unavailable, retry later');
    expect(result.headers?.RateLimit).toBeUndefined();
  });

  it('lets a request through uncounted when another refills the idle bucket between its two writes', async () => {
    // Prepare: the first write finds the bucket idle, the retry's refill finds it just refilled
    const now = Date.now();
    dynamo
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed(now - 1_000))
      .rejectsOnce(conditionFailed(now + 7));
    // Act
    const result = await call();
    // Assess
    expect(result.statusCode).toBe(200);
    expect(bucketWrites()).toBe(2);
    expect(result.headers?.RateLimit).toMatch(/^"default";r=\d+;t=1$/);
  });

  it("adds Retry-After to AWS throttling the operation's own query, with what the key has left", async () => {
    // Prepare
    const now = Date.now();
    dynamo.on(UpdateCommand).resolves({ Attributes: { tat: now + 1_000 / rateLimitDefaults.perSecond } });
    dynamo.on(QueryCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds', $metadata: {} }));
    // Act
    const result = await call();
    // Assess
    expect(result.statusCode).toBe(429);
    expect(result.headers).toMatchObject({ 'Retry-After': '1', RateLimit: `"default";r=${rateLimitDefaults.burst - 1};t=1` });
  });
});
