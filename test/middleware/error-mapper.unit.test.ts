import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/getExpenseTypes/handler.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { Conflict } from '../../shared/errors.ts';
import { logger } from '../../shared/logger.ts';
import { errorMapper } from '../../shared/middleware/error-mapper.ts';
import type { HttpRequest } from '../../shared/middleware/types.ts';
import { keys } from '../../shared/store/keys.ts';
import { aContext, anEvent } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => dynamo.restore());
const KEY = 'secret-key-that-must-never-be-logged';
let logged: string[];

beforeEach(() => {
  logged = [];
  logger.setLogLevel('ERROR');
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });
  }
});
afterEach(() => {
  dynamo.reset();
  vi.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

const body = (result: { body: string }) => JSON.parse(result.body);

describe('the error mapper in the chain', () => {
  it('answers a DynamoDB failure during the key lookup with 500 "internal error" and logs it with the request id', async () => {
    // Prepare
    dynamo.on(GetCommand).rejects(new Error('socket hang up'));
    // Act
    const result = await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    // Assess
    expect(result.statusCode).toBe(500);
    expect(body(result)).toEqual({ version: '1', result: 'error', error_msg: 'internal error' });
    const line = JSON.parse(logged.join(''));
    expect(line).toMatchObject({ level: 'ERROR', message: 'internal error', requestId: 'req-123', operation: 'getExpenseTypes' });
    expect(line.error.message).toBe('socket hang up');
    expect(logged.join('')).not.toContain(KEY);
  });

  it('answers DynamoDB\'s own 500 (InternalServerError) with 500 "internal error", not 503', async () => {
    // Prepare
    dynamo.on(GetCommand).rejects(new InternalServerError({ message: 'Internal server error', $metadata: { httpStatusCode: 500 } }));
    // Act
    const result = await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    // Assess
    expect(result.statusCode).toBe(500);
    expect(body(result)).toEqual({ version: '1', result: 'error', error_msg: 'internal error' });
  });

  it('never sends a stack trace to the caller', async () => {
    dynamo.on(GetCommand).rejects(new TypeError('Cannot read properties of undefined'));
    const result = await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    expect(result.body).not.toMatch(/at |TypeError|undefined/);
  });

  it('answers DynamoDB throttling with 429, not 500', async () => {
    // Prepare
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: { user_uid: 1, gmt_offset_minutes: 0, locked: false } });
    dynamo.on(UpdateCommand).resolves({ Attributes: { tat: Date.now() } }); // the rate limit's bucket
    dynamo.on(QueryCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    // Act
    const result = await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    // Assess
    expect(result.statusCode).toBe(429);
    expect(body(result)).toEqual({ version: '1', result: 'error', error_msg: 'request throttled, retry later' });
  });

  it.each([
    [
      'an SDK request timeout',
      Object.assign(new Error('a request has exceeded the configured requestTimeout'), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
    ],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })],
    [
      'a wrapper whose cause timed out',
      new Error('GetParameterError', { cause: Object.assign(new Error('timed out'), { name: 'TimeoutError' }) }),
    ],
  ])('answers %s with 503 "service unavailable, retry later", not 500', async (_case, failure) => {
    dynamo.on(GetCommand).rejects(failure);
    const result = await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    expect(result.statusCode).toBe(503);
    expect(body(result)).toEqual({ version: '1', result: 'error', error_msg: 'service unavailable, retry later' });
    expect(logged.join('')).not.toContain(KEY);
  });

  it("keeps a typed error's status and message", async () => {
    const result = await handler(anEvent({ method: 'DELETE' }), aContext());
    expect(result.statusCode).toBe(405);
    expect(body(result)).toEqual({ version: '1', result: 'error', error_msg: 'method not allowed, use GET' });
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8' });
  });
});

describe('the causes the error mapper logs', () => {
  // Called directly: in the chain, Powertools resets the level to the run's SILENT at every invocation after the first.
  const mapped = async (error: Error) => {
    const request = { event: anEvent(), context: aContext(), error, internal: {} } as unknown as HttpRequest;
    await errorMapper({ operation: 'addExpenseType' }).onError?.(request);
    return request.response;
  };
  const lines = () => logged.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));

  it('logs the cancelled transaction behind a 409 as its cause, and answers only the message', async () => {
    // Prepare
    logger.setLogLevel('INFO');
    const cancelled = Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons'), {
      name: 'TransactionCanceledException',
    });
    // Act
    const response = await mapped(new Conflict('expense type already exists', { cause: cancelled }));
    // Assess
    expect(response?.statusCode).toBe(409);
    expect(JSON.parse(response?.body ?? '')).toEqual({ version: '1', result: 'error', error_msg: 'expense type already exists' });
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 'INFO',
        message: 'request refused',
        operation: 'addExpenseType',
        status: 409,
        error: expect.objectContaining({ name: 'Conflict', cause: expect.objectContaining({ name: 'TransactionCanceledException' }) }),
      }),
    );
  });

  it("logs the SDK's timeout behind a 503 as its cause, and answers only the message", async () => {
    // Prepare
    logger.setLogLevel('WARN');
    const timeout = Object.assign(new Error('socket timed out'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    // Act
    const response = await mapped(timeout);
    // Assess
    expect(response?.statusCode).toBe(503);
    expect(response?.body).not.toContain('socket');
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 'WARN',
        message: 'dependency unavailable',
        status: 503,
        error: expect.objectContaining({
          name: 'ServiceUnavailable',
          cause: expect.objectContaining({ name: 'TimeoutError', code: 'ETIMEDOUT', message: 'socket timed out' }),
        }),
      }),
    );
  });
});
