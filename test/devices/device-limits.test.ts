/**
 * The HTTP device entry points' limits over real HTTP on the run's local stack (docs/devices.md, "Security"): a
 * bucket per device token and per IMEI (the api keys' GCRA), 429 with Retry-After past either, and unknown tokens
 * remembered so guesses cost no table read.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { deviceRateLimitDefaults } from '../../shared/config.ts';
import { intervalMs } from '../../shared/domain/token-bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { hashDeviceToken } from '../../shared/store/device-tokens.ts';
import { type Key, keys } from '../../shared/store/keys.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { devices, givenDeviceToken } from '../support/device-builders.ts';

async function givenPhone() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return { user, vehicle, token: await givenDeviceToken(user) };
}

/** A bucket empty for `emptyForMs` more, as after a flood. */
async function givenDrainedBucket(bucket: Key, policy: { perSecond: number; burst: number }, emptyForMs: number): Promise<void> {
  const tat = Date.now() + policy.burst * intervalMs(policy) + emptyForMs;
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: { ...bucket, tat } }));
}

const storedTat = async (bucket: Key) => (await dynamo().send(new GetCommand({ TableName: tableName(), Key: bucket }))).Item?.tat;

const bucketExists = async (bucket: Key) => (await storedTat(bucket)) !== undefined;

const aPoint = (imei: string) => ({ query: { id: imei, lat: 60, lon: 30, timestamp: '2026-03-01T10:00:00Z' } });

describe('the device entry points’ buckets', () => {
  it('answer 429 with Retry-After once an IMEI’s bucket is empty, naming the IMEI, and store nothing', async () => {
    // Prepare
    const { vehicle, token } = await givenPhone();
    await givenDrainedBucket(keys.imeiBucket(vehicle.imei), deviceRateLimitDefaults.perImei, 3_000);
    // Act
    const res = await devices.osmand(token, aPoint(vehicle.imei));
    // Assess
    expect(res).toBeError(429, `too many requests for imei ${vehicle.imei}, retry later`);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(3);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
  });

  it('answer 429 once the device token’s bucket is empty, whatever IMEI it sends for', async () => {
    // Prepare
    const { user, token } = await givenPhone();
    const other = await givenVehicle(user);
    await givenDrainedBucket(keys.deviceTokenBucket(hashDeviceToken(token)), deviceRateLimitDefaults.perToken, 2_000);
    // Act
    const res = await devices.traccar(token, {
      position: { latitude: 60, longitude: 30, fixTime: '2026-03-01T10:00:00Z' },
      device: { uniqueId: other.imei },
    });
    // Assess
    expect(res).toBeError(429, 'too many requests for this device token, retry later');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(2);
  });

  it('throttle a flood of one IMEI past its burst, with every answer a 200 or a 429', async () => {
    // Prepare
    const { vehicle, token } = await givenPhone();
    const policy = deviceRateLimitDefaults.perImei;
    // five requests left in the bucket, as after a burst
    await givenDrainedBucket(keys.imeiBucket(vehicle.imei), policy, -5 * intervalMs(policy));
    // Act
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => devices.osmand(token, aPoint(vehicle.imei))));
    const seconds = (Date.now() - started) / 1000;
    // Assess: the five left, and what the bucket refilled meanwhile (10 a second), pass
    const statuses = answers.map((res) => res.status);
    const passed = statuses.filter((status) => status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(5 + Math.ceil(seconds * policy.perSecond));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
  });

  it('write a phone’s buckets when the endpoint first sees them, not for each report slower than they refill', async () => {
    // Prepare
    const { vehicle, token } = await givenPhone();
    const buckets = [keys.imeiBucket(vehicle.imei), keys.deviceTokenBucket(hashDeviceToken(token))];
    await devices.osmand(token, aPoint(vehicle.imei));
    const tatsAfterFirst = await Promise.all(buckets.map(storedTat));
    // longer than the IMEI bucket's interval (100 ms): the phone is back under its rate
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Act
    const res = await devices.osmand(token, aPoint(vehicle.imei));
    // Assess
    expect(res.status).toBe(200);
    expect(tatsAfterFirst.every((tat) => typeof tat === 'number')).toBe(true);
    expect(await Promise.all(buckets.map(storedTat))).toEqual(tatsAfterFirst);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=99;t=\d+$/);
  });

  it('count a flood whole once the endpoint has seen the IMEI’s bucket full: its burst passes, and what refilled', async () => {
    // Prepare: the endpoint has seen the bucket, full again once the first report's interval (100 ms) is past
    const { vehicle, token } = await givenPhone();
    const policy = deviceRateLimitDefaults.perImei;
    await devices.osmand(token, aPoint(vehicle.imei));
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Act
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 150 }, () => devices.osmand(token, aPoint(vehicle.imei))));
    const seconds = (Date.now() - started) / 1000;
    // Assess
    const passed = answers.filter((res) => res.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(policy.burst);
    expect(passed).toBeLessThanOrEqual(policy.burst + Math.ceil(seconds * policy.perSecond));
    expect(answers.every((res) => res.status === 200 || res.status === 429)).toBe(true);
  });

  it('never touch the bucket of an IMEI that is not the token user’s, so no one can drain another tenant’s', async () => {
    // Prepare
    const { token } = await givenPhone();
    const stranger = await givenPhone();
    // Act
    const res = await devices.osmand(token, aPoint(stranger.vehicle.imei));
    // Assess
    expect(res.status).toBe(404);
    expect(await bucketExists(keys.imeiBucket(stranger.vehicle.imei))).toBe(false);
  });
});

describe('unknown device tokens', () => {
  it('are remembered: a guess repeated within 10 s is answered 401 without reading the table', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const guess = `guess-${vehicle.imei}`;
    const first = await devices.osmand(guess, aPoint(vehicle.imei));
    const tokenHash = hashDeviceToken(guess);
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.deviceToken(tokenHash),
          ...keys.deviceTokenTimeline(user.userUid, new Date().toISOString(), tokenHash.slice(0, 12)),
          token_hash: tokenHash,
          token_id: tokenHash.slice(0, 12),
          user_uid: user.userUid,
          created_at: new Date().toISOString(),
        },
      }),
    );
    // Act
    const again = await devices.osmand(guess, aPoint(vehicle.imei));
    // Assess
    expect(first).toBeError(401, 'unknown or revoked device token');
    expect(again).toBeError(401, 'unknown or revoked device token');
    expect(await bucketExists(keys.deviceTokenBucket(tokenHash))).toBe(false);
  });
});
