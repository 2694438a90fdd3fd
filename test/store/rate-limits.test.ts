/**
 * takeToken on DynamoDB Local with a clock of the test's own: which writes one request costs, and what it is told.
 * A bucket of 10 refilled at 100 a second (an interval of 10 ms) keeps the arithmetic readable.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BucketPolicy, intervalMs } from '../../shared/domain/token-bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { takeFromBucket, takeFromQuietBucket, takeToken } from '../../shared/store/rate-limits.ts';

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

/** A device-like bucket of its own per case (an IMEI's: 10 a second, bursts of 100), and its stored TAT. */
function aQuietBucket(policy: BucketPolicy = { perSecond: 10, burst: 100 }) {
  const bucket = keys.imeiBucket(randomUUID());
  const clock = { at: T0 };
  return {
    take: () => takeFromQuietBucket(bucket, policy, () => clock.at),
    writes: () => writes.get(bucket.pk) ?? [],
    storedTat: async () => (await dynamo().send(new GetCommand({ TableName: tableName(), Key: bucket }))).Item?.tat,
    grantedAt: async (tat: number) => dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...bucket, tat } })),
    clock,
  };
}

describe('takeFromQuietBucket', () => {
  it('writes a bucket this function instance has not seen yet', async () => {
    const bucket = aQuietBucket();
    expect(await bucket.take()).toEqual({ allowed: true, remaining: 99, fullInMs: 100, retryInMs: 0 });
    expect(bucket.writes()).toEqual(['drain']);
  });

  it('lets a phone reporting every 30 s pass without a write once the instance has seen its bucket', async () => {
    // Prepare
    const bucket = aQuietBucket();
    await bucket.take();
    // Act
    const allowances = [];
    for (let report = 1; report <= 10; report++) {
      bucket.clock.at += 30_000;
      allowances.push(await bucket.take());
    }
    // Assess
    expect(allowances.every((allowance) => allowance.allowed && allowance.remaining === 99)).toBe(true);
    expect(bucket.writes()).toEqual(['drain']);
    expect(await bucket.storedTat()).toBe(T0 + 100);
  });

  it('counts a request it let pass with the next write, when that comes within the refill time', async () => {
    // Prepare
    const bucket = aQuietBucket();
    await bucket.take();
    bucket.clock.at += 5_000;
    await bucket.take();
    bucket.clock.at += 1_000;
    // Act
    const allowance = await bucket.take();
    // Assess: two requests' intervals from now
    expect(bucket.writes()).toEqual(['drain', 'refill']);
    expect(await bucket.storedTat()).toBe(T0 + 6_000 + 200);
    expect(allowance.remaining).toBe(98);
  });

  it('drops a request owed longer than the bucket takes to fill again', async () => {
    // Prepare: owed at T0 + 20 s, and again at T0 + 31 s once the first is dropped
    const bucket = aQuietBucket();
    await bucket.take();
    bucket.clock.at += 20_000;
    await bucket.take();
    bucket.clock.at += 11_000;
    await bucket.take();
    // Act
    await bucket.take();
    // Assess: the write counts the request owed since T0 + 31 s and its own, not the dropped one
    expect(await bucket.storedTat()).toBe(T0 + 31_000 + 200);
  });

  it('counts a flood whole: exactly the burst passes, the request let pass without a write included', async () => {
    // Prepare
    const bucket = aQuietBucket();
    await bucket.take();
    bucket.clock.at += 20_000;
    // Act
    const allowances = [];
    for (let i = 0; i < 120; i++) allowances.push(await bucket.take());
    // Assess
    expect(allowances.filter((allowance) => allowance.allowed)).toHaveLength(100);
    expect(allowances.slice(100).every((allowance) => !allowance.allowed)).toBe(true);
    expect(await bucket.storedTat()).toBe(T0 + 20_000 + 100 * 100);
  });

  it('lets at most 1 % of the burst pass without a write, then writes them all with the next', async () => {
    // Prepare: a bucket of 300, so 3 may pass without a write
    const bucket = aQuietBucket({ perSecond: 100, burst: 300 });
    await bucket.take();
    bucket.clock.at += 10_000;
    for (let i = 0; i < 3; i++) await bucket.take();
    const writesBefore = bucket.writes().length;
    // Act
    const allowance = await bucket.take();
    // Assess
    expect(writesBefore).toBe(1);
    expect(await bucket.storedTat()).toBe(T0 + 10_000 + 4 * 10);
    expect(allowance.remaining).toBe(296);
  });

  it('lets at most one request pass that another instance already emptied the bucket for, then refuses', async () => {
    // Prepare: this instance saw the bucket full; another has since emptied it for 5 s
    const bucket = aQuietBucket();
    await bucket.take();
    bucket.clock.at += 20_000;
    await bucket.grantedAt(bucket.clock.at + 100 * 100 + 5_000);
    // Act
    const allowances = [await bucket.take(), await bucket.take(), await bucket.take()];
    // Assess
    expect(allowances.map((allowance) => allowance.allowed)).toEqual([true, false, false]);
    expect(allowances[2]?.retryInMs).toBe(5_100);
  });
});

describe('a parallel flood', () => {
  /** A clock that moves 2 ms each time it is read: the flood's writes wait behind each other, as on a busy table. */
  const movingClock = () => {
    const clock = { at: T0 };
    return { clock, read: () => (clock.at += 2) };
  };

  it.each([
    ['takeFromBucket', takeFromBucket, 0],
    ['takeFromQuietBucket', takeFromQuietBucket, 1],
  ] as const)('%s lets through the burst of a bucket it saw full, what refilled meanwhile and no more', async (_name, take, deferred) => {
    // Prepare: the instance has seen the bucket, full again
    const bucket = keys.imeiBucket(randomUUID());
    const policy: BucketPolicy = { perSecond: 10, burst: 100 };
    const { clock, read } = movingClock();
    await take(bucket, policy, read);
    clock.at += 1_000;
    const started = clock.at;
    // Act
    const allowances = await Promise.all(Array.from({ length: 200 }, () => take(bucket, policy, read)));
    // Assess
    const passed = allowances.filter((allowance) => allowance.allowed).length;
    const refilled = Math.ceil((clock.at - started) / intervalMs(policy));
    expect(passed).toBeGreaterThanOrEqual(policy.burst - 1);
    expect(passed).toBeLessThanOrEqual(policy.burst + refilled + deferred);
  });
});
