import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../shared/domain/api-key.ts';
import { Forbidden, Unauthorized } from '../../shared/errors.ts';
import { apiKeyAuth, MAX_KEY_CACHE_MS } from '../../shared/middleware/api-key-auth.ts';
import { parseRequest } from '../../shared/middleware/parse-request.ts';
import type { RequestState } from '../../shared/middleware/types.ts';
import { findApiKey } from '../../shared/store/api-keys.ts';
import { keys } from '../../shared/store/keys.ts';
import { aContext, anEvent } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());

const KEY = 'k3y-of-the-test-user';
const keyItem = { ...keys.apiKey(hashApiKey(KEY)), user_uid: 42, gmt_offset_minutes: 120, locked: false };

/** The auth middleware behind the parser, with a handler that reports the user it was given. */
function authenticated(options: { now?: () => number; cacheTtlMs?: number } = {}) {
  return middy()
    .use(parseRequest())
    .use(apiKeyAuth({ findApiKey, ...options }))
    .before((request) => {
      (request.context as typeof request.context & { user?: unknown }).user = (request.internal as RequestState).user;
    })
    .handler(async (_event: unknown, context: any) => context.user);
}

describe('apiKeyAuth', () => {
  it('finds the key by its SHA-256 hash and hands the user on', async () => {
    // Prepare
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: keyItem });
    // Act
    const user = await authenticated()(anEvent({ query: `api_key=${KEY}` }), aContext());
    // Assess
    expect(user).toEqual({ userUid: 42, gmtOffsetMinutes: 120 });
    expect(JSON.stringify(dynamo.calls().map((call) => call.args[0].input))).not.toContain(KEY);
  });

  it('prefers the X-Api-Key header over the query string and the body', async () => {
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: keyItem });
    const event = anEvent({
      method: 'POST',
      query: 'api_key=wrong',
      headers: { 'x-api-key': KEY, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'api_key=also-wrong',
    });
    await expect(authenticated()(event, aContext())).resolves.toMatchObject({ userUid: 42 });
  });

  it('reads the key from a form or JSON body', async () => {
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: keyItem });
    const form = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `api_key=${KEY}` });
    const json = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ api_key: KEY }) });
    await expect(authenticated()(form, aContext())).resolves.toMatchObject({ userUid: 42 });
    await expect(authenticated()(json, aContext())).resolves.toMatchObject({ userUid: 42 });
  });

  it.each([
    ['a blank header and a query key', anEvent({ query: `api_key=${KEY}`, headers: { 'x-api-key': ' ' } })],
    [
      'an empty form body key and a query key',
      anEvent({
        method: 'POST',
        query: `api_key=${KEY}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'api_key=',
      }),
    ],
    [
      'a blank JSON body key and a query key',
      anEvent({ method: 'POST', query: `api_key=${KEY}`, headers: { 'Content-Type': 'application/json' }, body: '{"api_key":"  "}' }),
    ],
    [
      'a blank query key and a body key',
      anEvent({
        method: 'POST',
        query: 'api_key=',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `api_key=${KEY}`,
      }),
    ],
    [
      'a blank header, a blank body key and a query key',
      anEvent({
        method: 'POST',
        query: `api_key=${KEY}`,
        headers: { 'x-api-key': '', 'Content-Type': 'application/json' },
        body: '{"api_key":""}',
      }),
    ],
  ])('never lets a blank key hide a given one: %s', async (_case, event) => {
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: keyItem });
    await expect(authenticated()(event, aContext())).resolves.toMatchObject({ userUid: 42 });
  });

  it('prefers the body over the query string when both carry a key', async () => {
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey(KEY)) }).resolves({ Item: keyItem });
    dynamo.on(GetCommand, { Key: keys.apiKey(hashApiKey('wrong')) }).resolves({});
    const event = (body: string, query: string) =>
      anEvent({
        method: 'POST',
        query: `api_key=${query}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `api_key=${body}`,
      });
    await expect(authenticated()(event(KEY, 'wrong'), aContext())).resolves.toMatchObject({ userUid: 42 });
    await expect(authenticated()(event('wrong', KEY), aContext())).rejects.toEqual(new Unauthorized('unknown api key'));
  });

  it('says "api key missing" for a keyless request whose body is broken JSON, before the body error', async () => {
    const event = anEvent({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"api_key": ' });
    await expect(authenticated()(event, aContext())).rejects.toEqual(new Unauthorized('api key missing'));
  });

  it('says "api key missing" when no key is given, or only blanks', async () => {
    await expect(authenticated()(anEvent(), aContext())).rejects.toEqual(new Unauthorized('api key missing'));
    await expect(authenticated()(anEvent({ query: 'api_key=%20%20' }), aContext())).rejects.toEqual(new Unauthorized('api key missing'));
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('says "unknown api key" when no item has the hash', async () => {
    dynamo.on(GetCommand).resolves({});
    await expect(authenticated()(anEvent({ query: 'api_key=nope' }), aContext())).rejects.toEqual(new Unauthorized('unknown api key'));
  });

  it('says "api key locked" for a locked key', async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...keyItem, locked: true } });
    await expect(authenticated()(anEvent({ query: `api_key=${KEY}` }), aContext())).rejects.toEqual(new Forbidden('api key locked'));
  });

  it('lets a DynamoDB failure during the lookup through, for the error mapper to answer 500', async () => {
    dynamo.on(GetCommand).rejects(new Error('connection reset'));
    await expect(authenticated()(anEvent({ query: `api_key=${KEY}` }), aContext())).rejects.toThrow('connection reset');
  });

  it('serves a found key from memory within the cache time, then looks again', async () => {
    // Prepare
    let clock = 1_000_000;
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const handler = authenticated({ now: () => clock, cacheTtlMs: 30_000 });
    const event = anEvent({ query: `api_key=${KEY}` });
    // Act
    await handler(event, aContext());
    clock += 29_000;
    await handler(event, aContext());
    const callsWithinTtl = dynamo.commandCalls(GetCommand).length;
    clock += 2_000;
    dynamo.on(GetCommand).resolves({ Item: { ...keyItem, locked: true } });
    const afterTtl = handler(event, aContext());
    // Assess
    expect(callsWithinTtl).toBe(1);
    await expect(afterTtl).rejects.toEqual(new Forbidden('api key locked'));
  });

  it('never caches a key for more than 60 seconds, whatever it is told', async () => {
    let clock = 0;
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const handler = authenticated({ now: () => clock, cacheTtlMs: 10 * MAX_KEY_CACHE_MS });
    await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    clock += MAX_KEY_CACHE_MS + 1;
    await handler(anEvent({ query: `api_key=${KEY}` }), aContext());
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('does not remember unknown keys, so a key created a moment later works at once', async () => {
    dynamo.on(GetCommand).resolvesOnce({}).resolves({ Item: keyItem });
    const handler = authenticated();
    await expect(handler(anEvent({ query: `api_key=${KEY}` }), aContext())).rejects.toEqual(new Unauthorized('unknown api key'));
    await expect(handler(anEvent({ query: `api_key=${KEY}` }), aContext())).resolves.toMatchObject({ userUid: 42 });
  });
});
