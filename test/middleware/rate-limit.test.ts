/**
 * The per-api-key token bucket through real HTTP on the run's shared local stack, which runs the deployed defaults
 * (rateLimitDefaults: 150 requests a second, bursts of 300): the clients the limit must never throttle, the burst
 * past the bucket it must, and the headers that tell a client where it stands.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { rateLimitDefaults } from '../../shared/config.ts';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { createApiKey, setApiKeyLocked } from '../../shared/store/api-keys.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { type ApiResponse, api } from '../support/api.ts';
import { givenBucketWith, givenDrainedBucket, givenUser, givenVehicle } from '../support/builders.ts';

const { perSecond, burst } = rateLimitDefaults;
const PRODUCTION_CALL_MS = 20;

/** `RateLimit: "default";r=<remaining>;t=<seconds>` read back as numbers. */
function rateLimitOf(res: ApiResponse): { remaining: number; resetS: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`no RateLimit header in ${res.status}: ${res.headers.get('ratelimit')}`);
  return { remaining: Number(match[1]), resetS: Number(match[2]) };
}

const listVehicles = (key: string) => api.get('getVehicles', {}, { headers: { 'X-Api-Key': key } });
const burstOf = (size: number, key: string) => Promise.all(Array.from({ length: size }, () => listVehicles(key)));
const countOf = (answers: ApiResponse[], status: number) => answers.filter((res) => res.status === status).length;

/** A client that waits for each answer, each call taking at least `callMs` as it does in production. */
async function sequentialClient(key: string, durationMs: number, callMs: number, minCalls: number): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (const start = Date.now(); Date.now() - start < durationMs || answers.length < minCalls; ) {
    const called = Date.now();
    answers.push(await listVehicles(key));
    await sleep(Math.max(0, callMs - (Date.now() - called)));
  }
  return answers;
}

describe('clients the per-key limit never throttles', () => {
  it('lets a client that waits for each answer at production latency call for seconds without a 429', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const answers = await sequentialClient(user.key, 3_000, PRODUCTION_CALL_MS, 50);
    // Assess
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    // refilled faster than it is drained: the bucket never runs low
    expect(Math.min(...answers.map((res) => rateLimitOf(res).remaining))).toBeGreaterThanOrEqual(burst - 2);
  });

  it('lets a burst of 40 parallel requests through, each told what is left of the bucket', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const answers = await burstOf(40, user.key);
    // Assess
    expect(countOf(answers, 200)).toBe(40);
    expect(Math.max(...answers.map((res) => rateLimitOf(res).remaining))).toBeLessThan(burst);
  });
});

describe('a burst past the bucket', () => {
  it('never lets more through than what was left and what the bucket refilled meanwhile', async () => {
    // Prepare
    const user = await givenUser();
    await givenBucketWith(user.key, 10);
    const started = Date.now();
    // Act
    const answers = await burstOf(40, user.key);
    const elapsedS = (Date.now() - started) / 1000;
    // Assess
    expect(answers.map((res) => res.status).filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(countOf(answers, 200)).toBeGreaterThanOrEqual(10);
    expect(countOf(answers, 200)).toBeLessThanOrEqual(10 + Math.ceil(perSecond * elapsedS) + 1);
    for (const res of answers.filter((answer) => answer.status === 429)) expect(rateLimitOf(res).remaining).toBe(0);
  });

  it("answers a read over the limit 429 and nothing of what it read, though the read ran alongside the bucket's write", async () => {
    // Prepare
    const user = await givenUser();
    await givenVehicle(user);
    await givenDrainedBucket(user.key, 5_000);
    // Act
    const res = await listVehicles(user.key);
    // Assess
    expect(res).toBeError(429, 'too many requests for this api key, retry later');
    expect(Object.keys(res.body)).toEqual(['version', 'result', 'error_msg']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('answers 429 in the envelope with Retry-After to every request while the bucket is empty', async () => {
    // Prepare: empty for longer than the test may run, so however slowly the burst is served, no token comes back
    const user = await givenUser();
    const emptyForS = 120;
    await givenDrainedBucket(user.key, emptyForS * 1000);
    // Act
    const answers = await burstOf(40, user.key);
    // Assess
    expect(countOf(answers, 429)).toBe(40);
    expect(answers[0]).toBeError(429, 'too many requests for this api key, retry later');
    for (const res of answers) {
      expect(rateLimitOf(res).remaining).toBe(0);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(emptyForS + 1);
    }
  });

  it('lets the key in again once Retry-After has passed', async () => {
    // Prepare
    const user = await givenUser();
    await givenDrainedBucket(user.key, 2_000);
    const refused = await listVehicles(user.key);
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get('retry-after')) * 1000);
    // Act
    const res = await listVehicles(user.key);
    // Assess
    expect(res).toBeSuccess();
  });

  it('limits a key, not a user: another key of the same user still has its whole bucket', async () => {
    // Prepare
    const user = await givenUser();
    const secondKey = await createApiKey(user.userUid);
    await givenDrainedBucket(user.key, 5_000);
    // Act
    const res = await api.get('getVehicles', { api_key: secondKey });
    // Assess
    expect(res).toBeSuccess();
    expect(rateLimitOf(res).remaining).toBe(burst - 1);
  });
});

describe('rate-limit headers', () => {
  it('tells every successful answer the policy and what is left, per the IETF RateLimit draft', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await listVehicles(user.key);
    // Assess
    expect(res.headers.get('ratelimit-policy')).toBe(`"default";q=${burst};w=${Math.ceil(burst / perSecond)}`);
    expect(rateLimitOf(res)).toEqual({ remaining: burst - 1, resetS: 1 });
  });

  it('tells error answers too, and an unknown key the policy only: it has no bucket', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const invalid = await api.get('getTrips', { api_key: user.key, vehicle_uid: 'not-a-number' });
    const unknownKey = await listVehicles('not-a-key-of-anybody');
    // Assess
    expect(invalid.status).toBe(400);
    expect(rateLimitOf(invalid).remaining).toBe(burst - 1);
    expect(unknownKey).toBeError(401, 'unknown api key');
    expect(unknownKey.headers.get('ratelimit-policy')).not.toBeNull();
    expect(unknownKey.headers.get('ratelimit')).toBeNull();
  });

  it('counts the key wherever it is sent: header, query string or body, before the input is checked', async () => {
    // Prepare
    const user = await givenUser();
    await givenDrainedBucket(user.key, 5_000);
    // Act
    const answers = [
      await listVehicles(user.key),
      await api.get('getVehicles', { api_key: user.key }),
      await api.post('addExpenseType', { api_key: user.key, expense_name: 'Tolls' }),
      await api.get('getTrips', { api_key: user.key, vehicle_uid: 'not-a-number' }),
    ];
    // Assess
    expect(answers.map((res) => res.status)).toEqual([429, 429, 429, 429]);
  });
});

describe('keys that are not let in', () => {
  const bucketOf = async (key: string) =>
    (await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.rateBucket(hashApiKey(key)) }))).Item;

  it('get no bucket for an unknown key: a stream of guesses costs no table write', async () => {
    // Prepare
    const guess = `guess-${Date.now()}-${Math.random()}`;
    // Act
    const guesses = await Promise.all(Array.from({ length: 5 }, () => listVehicles(guess)));
    // Assess
    for (const res of guesses) expect(res).toBeError(401, 'unknown api key');
    expect(await bucketOf(guess)).toBeUndefined();
  });

  it('get no bucket for a locked key', async () => {
    // Prepare
    const user = await givenUser();
    await setApiKeyLocked(user.key, true);
    // Act
    const res = await listVehicles(user.key);
    // Assess
    expect(res).toBeError(403, 'api key locked');
    expect(await bucketOf(user.key)).toBeUndefined();
  });
});
