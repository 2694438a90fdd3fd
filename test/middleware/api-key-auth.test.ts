/**
 * apiKeyAuth behind the parser, against the keys in DynamoDB Local: keys made by the store (createApiKey) or
 * planted under a hash this file states itself, so the hashing is checked apart from the code that does it.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { Forbidden, Unauthorized } from '../../shared/errors.ts';
import { apiKeyAuth } from '../../shared/middleware/api-key-auth.ts';
import { MAX_CREDENTIAL_CACHE_MS, UNKNOWN_CREDENTIAL_MEMORY_MS } from '../../shared/middleware/credential-memory.ts';
import { parseRequest } from '../../shared/middleware/parse-request.ts';
import { authenticatedUser, type HttpRequest } from '../../shared/middleware/types.ts';
import { findApiKey, setApiKeyLocked } from '../../shared/store/api-keys.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { givenUser } from '../support/builders.ts';
import { aContext, anEvent } from '../support/events.ts';

/** The FIPS 180-2 test vector: SHA-256("abc"), in hex. */
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/** Keys only: the bearer token's path has its own test (test/console/sign-in.test.ts), against the local provider. */
const KEYS_ONLY = {
  findApiKey,
  markApiKeyUsed: async () => undefined,
  findPerson: async () => undefined,
  verifyAccessToken: async () => {
    throw new Unauthorized('access token invalid');
  },
};

/** The auth middleware behind the parser, with a handler that answers the user it was given. */
function authenticated(options: { now?: () => number; cacheTtlMs?: number } = {}) {
  return middy()
    .use(parseRequest())
    .use(apiKeyAuth({ ...KEYS_ONLY, ...options }))
    .before((request) => {
      (request.context as typeof request.context & { user?: unknown }).user = authenticatedUser(request as unknown as HttpRequest);
    })
    .handler(async (_event: unknown, context: any) => context.user);
}

/** A key item written straight to the table under the given hash, as the store lays it out. */
async function plantKey(keyHash: string, item: { userUid: number; gmtOffsetMinutes: number }): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.apiKey(keyHash), user_uid: item.userUid, gmt_offset_minutes: item.gmtOffsetMinutes, locked: false },
    }),
  );
}

const withQueryKey = (key: string) => anEvent({ query: `api_key=${encodeURIComponent(key)}` });

describe('apiKeyAuth', () => {
  it('finds the key by its SHA-256 hash in hex and hands the user on, with the offset stored beside the key', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    await plantKey(ABC_SHA256, { userUid: user.userUid, gmtOffsetMinutes: 120 });
    // Act
    const found = await authenticated()(withQueryKey('abc'), aContext());
    // Assess
    expect(found).toEqual({ userUid: user.userUid, gmtOffsetMinutes: 120 });
  });

  it('leaves the presented key hashed once, beside its user, for every later middleware', async () => {
    // Prepare
    const user = await givenUser();
    await plantKey(ABC_SHA256, { userUid: user.userUid, gmtOffsetMinutes: 0 });
    const handed = middy()
      .use(parseRequest())
      .use(apiKeyAuth(KEYS_ONLY))
      .handler(async () => undefined);
    let internal: Record<string, unknown> = {};
    handed.before((request) => {
      internal = { ...(request.internal as Record<string, unknown>) };
    });
    // Act
    await handed(withQueryKey('abc'), aContext());
    // Assess
    expect(internal).toMatchObject({ credentialHash: ABC_SHA256, user: { userUid: user.userUid } });
  });

  it('prefers the X-Api-Key header over the query string and the body', async () => {
    const user = await givenUser();
    const event = anEvent({
      method: 'POST',
      query: 'api_key=wrong',
      headers: { 'x-api-key': user.key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'api_key=also-wrong',
    });
    await expect(authenticated()(event, aContext())).resolves.toMatchObject({ userUid: user.userUid });
  });

  it('reads the key from a form or JSON body', async () => {
    const user = await givenUser();
    const form = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `api_key=${user.key}` });
    const json = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ api_key: user.key }) });
    await expect(authenticated()(form, aContext())).resolves.toMatchObject({ userUid: user.userUid });
    await expect(authenticated()(json, aContext())).resolves.toMatchObject({ userUid: user.userUid });
  });

  it.each([
    ['a blank header and a query key', (key: string) => anEvent({ query: `api_key=${key}`, headers: { 'x-api-key': ' ' } })],
    [
      'an empty form body key and a query key',
      (key: string) =>
        anEvent({
          method: 'POST',
          query: `api_key=${key}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'api_key=',
        }),
    ],
    [
      'a blank JSON body key and a query key',
      (key: string) =>
        anEvent({ method: 'POST', query: `api_key=${key}`, headers: { 'Content-Type': 'application/json' }, body: '{"api_key":"  "}' }),
    ],
    [
      'a blank query key and a body key',
      (key: string) =>
        anEvent({
          method: 'POST',
          query: 'api_key=',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `api_key=${key}`,
        }),
    ],
    [
      'a blank header, a blank body key and a query key',
      (key: string) =>
        anEvent({
          method: 'POST',
          query: `api_key=${key}`,
          headers: { 'x-api-key': '', 'Content-Type': 'application/json' },
          body: '{"api_key":""}',
        }),
    ],
  ])('never lets a blank key hide a given one: %s', async (_case, eventWith) => {
    const user = await givenUser();
    await expect(authenticated()(eventWith(user.key), aContext())).resolves.toMatchObject({ userUid: user.userUid });
  });

  it('prefers the body over the query string when both carry a key', async () => {
    const user = await givenUser();
    const event = (body: string, query: string) =>
      anEvent({
        method: 'POST',
        query: `api_key=${query}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `api_key=${body}`,
      });
    await expect(authenticated()(event(user.key, 'wrong'), aContext())).resolves.toMatchObject({ userUid: user.userUid });
    await expect(authenticated()(event('wrong', user.key), aContext())).rejects.toEqual(new Unauthorized('unknown api key'));
  });

  it('says "api key missing" for a keyless request whose body is broken JSON, before the body error', async () => {
    const event = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"api_key": ' });
    await expect(authenticated()(event, aContext())).rejects.toEqual(new Unauthorized('api key missing'));
  });

  it('says "api key missing" when no key is given, or only blanks', async () => {
    await expect(authenticated()(anEvent(), aContext())).rejects.toEqual(new Unauthorized('api key missing'));
    await expect(authenticated()(anEvent({ query: 'api_key=%20%20' }), aContext())).rejects.toEqual(new Unauthorized('api key missing'));
  });

  it('says "unknown api key" when no item has the hash', async () => {
    await expect(authenticated()(withQueryKey('no-such-key'), aContext())).rejects.toEqual(new Unauthorized('unknown api key'));
  });

  it('says "api key locked" for a locked key', async () => {
    const user = await givenUser();
    await setApiKeyLocked(user.key, true);
    await expect(authenticated()(withQueryKey(user.key), aContext())).rejects.toEqual(new Forbidden('api key locked'));
  });

  it('lets a DynamoDB failure during the lookup through, for the error mapper to answer', async () => {
    // Prepare: DynamoDB Local does not fail on demand, so this one lookup is made to
    const failing = mockClient(dynamo());
    failing.on(GetCommand).rejects(new Error('connection reset'));
    try {
      // Act
      const answer = authenticated()(withQueryKey('any-key'), aContext());
      // Assess
      await expect(answer).rejects.toThrow('connection reset');
    } finally {
      failing.restore();
    }
  });

  it('serves a found key from memory within the cache time, then reads it again', async () => {
    // Prepare
    const user = await givenUser();
    let clock = 1_000_000;
    const handler = authenticated({ now: () => clock, cacheTtlMs: 30_000 });
    await handler(withQueryKey(user.key), aContext());
    await setApiKeyLocked(user.key, true);
    // Act
    clock += 29_000;
    const withinTtl = await handler(withQueryKey(user.key), aContext()).catch((error: Error) => error);
    clock += 2_000;
    const afterTtl = await handler(withQueryKey(user.key), aContext()).catch((error: Error) => error);
    // Assess
    expect(withinTtl).toMatchObject({ userUid: user.userUid });
    expect(afterTtl).toEqual(new Forbidden('api key locked'));
  });

  it('never caches a key for more than 60 seconds, whatever it is told', async () => {
    // Prepare
    const user = await givenUser();
    let clock = 0;
    const handler = authenticated({ now: () => clock, cacheTtlMs: 10 * MAX_CREDENTIAL_CACHE_MS });
    await handler(withQueryKey(user.key), aContext());
    await setApiKeyLocked(user.key, true);
    // Act
    clock += MAX_CREDENTIAL_CACHE_MS + 1;
    const later = handler(withQueryKey(user.key), aContext());
    // Assess
    await expect(later).rejects.toEqual(new Forbidden('api key locked'));
  });

  it('remembers an unknown key for 10 s: a guess repeated meanwhile costs no lookup, and a key created works after it', async () => {
    // Prepare
    const user = await givenUser();
    let now = 0;
    const handler = authenticated({ now: () => now });
    const key = `made-later-${user.userUid}`;
    const before = handler(withQueryKey(key), aContext());
    await expect(before).rejects.toEqual(new Unauthorized('unknown api key'));
    await plantKey(createHash('sha256').update(key).digest('hex'), { userUid: user.userUid, gmtOffsetMinutes: 0 });
    // Act
    now = UNKNOWN_CREDENTIAL_MEMORY_MS - 1;
    const remembered = handler(withQueryKey(key), aContext());
    await remembered.catch(() => undefined);
    now = UNKNOWN_CREDENTIAL_MEMORY_MS + 1;
    const after = handler(withQueryKey(key), aContext());
    // Assess
    await expect(remembered).rejects.toEqual(new Unauthorized('unknown api key'));
    await expect(after).resolves.toMatchObject({ userUid: user.userUid });
  });
});

describe('apiKeyAuth with a bearer token', () => {
  const PERSON = { user: { userUid: 7, gmtOffsetMinutes: 60 }, locked: false, person: { email: 'manager@fleet.example' } };
  const withToken = (token: string) => anEvent({ headers: { authorization: `Bearer ${token}` } });

  /** The chain with a verifier that counts its checks: it accepts `good-…` tokens until `expiresAt`, if given. */
  function signedIn(options: { now: () => number; cacheTtlMs?: number; expiresAt?: number }) {
    const checks: string[] = [];
    const handler = middy()
      .use(parseRequest())
      .use(
        apiKeyAuth({
          ...KEYS_ONLY,
          findPerson: async () => PERSON,
          verifyAccessToken: async (token) => {
            checks.push(token);
            if (!token.startsWith('good-')) throw new Unauthorized('access token invalid');
            if (options.expiresAt !== undefined && options.now() >= options.expiresAt) throw new Unauthorized('access token expired');
            return { issuer: 'https://issuer.example', subject: 'manager', ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}) };
          },
          now: options.now,
          cacheTtlMs: options.cacheTtlMs ?? MAX_CREDENTIAL_CACHE_MS,
        }),
      )
      .before((request) => {
        (request.context as typeof request.context & { user?: unknown }).user = authenticatedUser(request as unknown as HttpRequest);
      })
      .handler(async (_event: unknown, context: any) => context.user);
    return { handler, checks };
  }

  it("verifies a token once and serves its person from memory within the cache time, as it serves a key's user", async () => {
    // Prepare
    let clock = 1_000_000;
    const { handler, checks } = signedIn({ now: () => clock });
    await handler(withToken('good-1'), aContext());
    // Act
    clock += MAX_CREDENTIAL_CACHE_MS - 1;
    const remembered = await handler(withToken('good-1'), aContext());
    clock += 2;
    const checkedAgain = await handler(withToken('good-1'), aContext());
    // Assess
    expect(remembered).toEqual(PERSON.user);
    expect(checkedAgain).toEqual(PERSON.user);
    expect(checks).toEqual(['good-1', 'good-1']);
  });

  it('checks a remembered token again once it has expired, however long the cache time', async () => {
    // Prepare
    let clock = 1_000_000;
    const { handler, checks } = signedIn({ now: () => clock, expiresAt: clock + 5_000 });
    await handler(withToken('good-2'), aContext());
    // Act
    clock += 5_000;
    const expired = handler(withToken('good-2'), aContext());
    // Assess
    await expect(expired).rejects.toEqual(new Unauthorized('access token expired'));
    expect(checks).toEqual(['good-2', 'good-2']);
  });

  it('remembers no token it could not verify, and no token at all without a cache time', async () => {
    // Prepare
    const { handler: remembering, checks: refusedChecks } = signedIn({ now: () => 0 });
    const { handler: forgetting, checks: uncachedChecks } = signedIn({ now: () => 0, cacheTtlMs: 0 });
    // Act
    const refusals = [await remembering(withToken('forged'), aContext()).catch((error: Error) => error)];
    refusals.push(await remembering(withToken('forged'), aContext()).catch((error: Error) => error));
    await forgetting(withToken('good-3'), aContext());
    await forgetting(withToken('good-3'), aContext());
    // Assess
    expect(refusals).toEqual([new Unauthorized('access token invalid'), new Unauthorized('access token invalid')]);
    expect(refusedChecks).toEqual(['forged', 'forged']);
    expect(uncachedChecks).toEqual(['good-3', 'good-3']);
  });

  it('tells two tokens apart: a token is remembered by its own hash', async () => {
    // Prepare
    const { handler, checks } = signedIn({ now: () => 0 });
    await handler(withToken('good-4'), aContext());
    // Act
    const other = handler(withToken('forged-after-good-4'), aContext());
    // Assess
    await expect(other).rejects.toEqual(new Unauthorized('access token invalid'));
    expect(checks).toEqual(['good-4', 'forged-after-good-4']);
  });
});
