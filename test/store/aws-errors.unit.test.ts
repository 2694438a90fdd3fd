import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { type AwsFailure, classifyAwsError, isWorthRetrying } from '../../shared/store/aws-errors.ts';

const named = (name: string, fields: Record<string, unknown> = {}): Error => Object.assign(new Error(name), { name, ...fields });
const cancelled = (...codes: string[]): Error =>
  named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

describe('classifyAwsError', () => {
  it.each<[string, unknown, AwsFailure]>([
    ['DynamoDB throttling', new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }), 'throttled'],
    ['a 429 answer', named('TooMany', { $metadata: { httpStatusCode: 429 } }), 'throttled'],
    ['a transaction cancelled by a throttled table', cancelled('None', 'ThrottlingError'), 'throttled'],
    ['a transaction in progress', named('TransactionInProgressException'), 'throttled'],
    ['an SDK request timeout', named('TimeoutError', { code: 'ETIMEDOUT' }), 'unavailable'],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), 'unavailable'],
    ['a 503 answer', named('Unavailable', { $metadata: { httpStatusCode: 503 } }), 'unavailable'],
    ["S3's ServiceUnavailable without a status", named('ServiceUnavailable'), 'unavailable'],
    ['a call our deadline aborted', named('AbortError'), 'unavailable'],
    ['a wrapper whose cause timed out', new Error('GetParameterError', { cause: named('TimeoutError') }), 'unavailable'],
    [
      "DynamoDB's own 500",
      new InternalServerError({ message: 'Internal server error', $metadata: { httpStatusCode: 500 } }),
      'server fault',
    ],
    ['a server fault without a status', named('InternalServerError', { $fault: 'server' }), 'server fault'],
    ['a transaction another write came between', cancelled('None', 'TransactionConflict'), 'conflict'],
    ['a transaction whose condition a concurrent write broke', cancelled('ConditionalCheckFailed'), 'conflict'],
    ['a transaction with an item too large', cancelled('None', 'ValidationError'), 'lasting'],
    ['a full item collection', cancelled('ItemCollectionSizeLimitExceeded'), 'lasting'],
    ['a key DynamoDB refuses', named('ValidationException', { $fault: 'client', $metadata: { httpStatusCode: 400 } }), 'lasting'],
    ['a bug', new RangeError('Invalid time value'), 'lasting'],
    ['something thrown that is no error', 'oops', 'lasting'],
  ])('calls %s %s', (_case, error, failure) => {
    expect(classifyAwsError(error)).toBe(failure);
  });
});

describe('isWorthRetrying', () => {
  it('retries every failure but a lasting one, a 500 included', () => {
    // Prepare
    const failures = [named('ThrottlingException'), named('TimeoutError'), named('InternalServerError', { $fault: 'server' })];
    // Act
    const answers = [...failures, cancelled('TransactionConflict'), named('ValidationException')].map(isWorthRetrying);
    // Assess
    expect(answers).toEqual([true, true, true, true, false]);
  });
});
