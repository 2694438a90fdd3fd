/** The device token check's cache, with the lookup and the clock passed in: a revoked token must stop within 60 s. */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { deviceTokenAuth, type TokenOwner } from '../../shared/middleware/device-token-auth.ts';
import type { HttpRequest } from '../../shared/middleware/types.ts';

const aRequest = (token: string): HttpRequest =>
  ({ event: { pathParameters: { token }, headers: {} } as unknown as APIGatewayProxyEvent, internal: {} }) as unknown as HttpRequest;

/** A token store whose one token can be revoked, and a clock the test moves. */
function givenTokenStore() {
  const owner: TokenOwner = { userUid: 7, revoked: false };
  const clock = { now: 0 };
  let lookups = 0;
  const check = (cacheTtlMs: number) =>
    deviceTokenAuth({
      findTokenOwner: async (hash) => {
        lookups++;
        return hash === 'hash-of-T' ? { ...owner } : undefined;
      },
      hashToken: (token) => `hash-of-${token}`,
      cacheTtlMs,
      now: () => clock.now,
    }).before as (request: HttpRequest) => Promise<void>;
  return { owner, clock, check, lookups: () => lookups };
}

describe('the device token check', () => {
  it('serves a found token from memory, and sees its revocation once the cache time has passed', async () => {
    // Prepare
    const store = givenTokenStore();
    const check = store.check(60_000);
    await check(aRequest('T'));
    store.owner.revoked = true;
    // Act
    store.clock.now = 59_999;
    const cached = check(aRequest('T'));
    await cached;
    store.clock.now = 60_001;
    const afterward = check(aRequest('T'));
    // Assess
    await expect(cached).resolves.toBeUndefined();
    await expect(afterward).rejects.toThrow('unknown or revoked device token');
    expect(store.lookups()).toBe(2);
  });

  it('never caches longer than 60 s, whatever it is configured with', async () => {
    // Prepare
    const store = givenTokenStore();
    const check = store.check(3_600_000);
    await check(aRequest('T'));
    store.owner.revoked = true;
    // Act
    store.clock.now = 60_001;
    const afterward = check(aRequest('T'));
    // Assess
    await expect(afterward).rejects.toThrow('unknown or revoked device token');
  });

  it('puts the token user on the request for the handler', async () => {
    // Prepare
    const request = aRequest('T');
    // Act
    await givenTokenStore().check(0)(request);
    // Assess
    expect(request.internal.deviceUserUid).toBe(7);
  });

  it('remembers an unknown token for 10 s: guesses meanwhile cost no lookup', async () => {
    // Prepare
    const store = givenTokenStore();
    const check = store.check(0);
    await check(aRequest('guess')).catch(() => undefined);
    // Act
    store.clock.now = 9_999;
    const again = check(aRequest('guess'));
    await again.catch(() => undefined);
    const lookupsWithin = store.lookups();
    store.clock.now = 10_001;
    await check(aRequest('guess')).catch(() => undefined);
    // Assess
    await expect(again).rejects.toThrow('unknown or revoked device token');
    expect([lookupsWithin, store.lookups()]).toEqual([1, 2]);
  });
});
