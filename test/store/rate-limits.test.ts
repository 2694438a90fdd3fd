/**
 * takeToken on DynamoDB Local with a clock of the test's own: which writes one request costs, and what it is told.
 * A bucket of 10 refilled at 100 a second (an interval of 10 ms) keeps the arithmetic readable.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BucketPolicy } from '../../shared/domain/token-bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { takeToken } from '../../shared/store/rate-limits.ts';

const POLICY: BucketPolicy = { perSecond: 100, burst: 10 };
const T0 = 1_800_000_000_000;

/** The bucket writes each key was sent, outcome included. */
const writes = new Map<string, string[]>();

beforeAll(() => {
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { Key?: { pk?: string }; ConditionExpression?: string };
      const pk = String(input.Key?.pk ?? '');
      if (!pk.startsWith('RATE#')) return next(args);
      const side = input.ConditionExpression?.includes('BETWEEN') ? 'drain' : 'refill';
      try {
        const result = await next(args);
        writes.set(pk, [...(writes.get(pk) ?? []), side]);
        return result;
      } catch (error) {
        writes.set(pk, [...(writes.get(pk) ?? []), `${side} failed`]);
        throw error;
      }
    },
    { step: 'initialize', name: 'rateBucketWrites' },
  );
});

/** A key of its own per case, and a clock that reads `at` until moved. */
function aBucket() {
  const keyHash = randomUUID();
  const clock = { at: T0 };
  return {
    keyHash,
    take: () => takeToken(keyHash, POLICY, () => clock.at),
    writes: () => writes.get(`RATE#${keyHash}`) ?? [],
    clock,
  };
}

describe('takeToken', () => {
  it('takes a fresh bucket with one write and leaves burst - 1', async () => {
    const bucket = aBucket();
    const allowance = await bucket.take();
    expect(allowance).toEqual({ allowed: true, remaining: 9, fullInMs: 10, retryInMs: 0 });
    expect(bucket.writes()).toEqual(['drain']);
  });

  it('drains a bucket in use with one write each, as the container saw it last', async () => {
    // Prepare
    const bucket = aBucket();
    await bucket.take();
    // Act
    const allowances = [await bucket.take(), await bucket.take()];
    // Assess
    expect(allowances.map(({ remaining }) => remaining)).toEqual([8, 7]);
    expect(bucket.writes()).toEqual(['drain', 'drain', 'drain']);
  });

  it('refills a bucket idle long enough with one write, whatever it held, once the container has seen it', async () => {
    // Prepare
    const bucket = aBucket();
    for (let i = 0; i < 5; i++) await bucket.take();
    bucket.clock.at += 1_000;
    // Act
    const allowance = await bucket.take();
    // Assess
    expect(allowance.remaining).toBe(9);
    expect(bucket.writes().slice(-1)).toEqual(['refill']);
  });

  it('tries the other side once when the guess was wrong, told the stored time by the failed condition', async () => {
    // Prepare: this container last saw the bucket full again at T0 + 10; another one has since taken 4 more
    const bucket = aBucket();
    await bucket.take();
    bucket.clock.at += 20;
    await dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...keys.rateBucket(bucket.keyHash), tat: T0 + 50 } }));
    // Act
    const allowance = await bucket.take();
    // Assess
    expect(allowance).toMatchObject({ allowed: true, remaining: 6 });
    expect(bucket.writes()).toEqual(['drain', 'refill failed', 'drain']);
  });

  it('refuses past the burst with the one failed write, saying when the next request may come', async () => {
    // Prepare
    const bucket = aBucket();
    for (let i = 0; i < 10; i++) await bucket.take();
    // Act
    const allowance = await bucket.take();
    // Assess
    expect(allowance).toEqual({ allowed: false, remaining: 0, fullInMs: 100, retryInMs: 10 });
    expect(bucket.writes().slice(-1)).toEqual(['drain failed']);
    bucket.clock.at += 10;
    expect(await bucket.take()).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('judges a refused write again at the time it answered, as it may have waited behind later requests', async () => {
    // Prepare: the bucket is empty at T0; this request was stamped then, but its write answers 50 ms later
    const bucket = aBucket();
    for (let i = 0; i < 10; i++) await bucket.take();
    const stamps = [T0, T0 + 50];
    const late = () => takeToken(bucket.keyHash, POLICY, () => stamps.shift() ?? T0 + 50);
    // Act
    const allowance = await late();
    // Assess
    expect(allowance).toMatchObject({ allowed: true });
    expect(bucket.writes().slice(-2)).toEqual(['drain failed', 'drain']);
  });
});
