/** The errors every operation shares, checked for every registry entry so a new operation cannot skip them. */
import { describe, expect, it } from 'vitest';
import { operations } from '../../shared/operations.ts';
import { setApiKeyLocked } from '../../shared/store/api-keys.ts';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

const send = (operation: (typeof operations)[number], params: Record<string, string>, headers?: Record<string, string>) =>
  operation.method === 'GET' ? api.get(operation.name, params, { headers }) : api.post(operation.name, params, { headers });

describe.each(operations.map((operation) => [operation.name, operation] as const))('%s', (_name, operation) => {
  const wrongMethod = operation.method === 'GET' ? 'POST' : 'GET';

  it('says "api key missing" without a key', async () => {
    expect(await send(operation, {})).toBeError(401, 'api key missing');
  });

  it('says "unknown api key" for a key nobody has', async () => {
    expect(await send(operation, { api_key: 'not-a-real-key' })).toBeError(401, 'unknown api key');
  });

  it('says "api key locked" for a locked key, and works again once unlocked', async () => {
    // Prepare
    const user = await givenUser();
    await setApiKeyLocked(user.key, true);
    // Act
    const locked = await send(operation, { api_key: user.key });
    await setApiKeyLocked(user.key, false);
    const unlocked = await send(operation, { api_key: user.key });
    // Assess
    expect(locked).toBeError(403, 'api key locked');
    expect(unlocked.status).not.toBe(403);
  });

  it('takes the key from the X-Api-Key header', async () => {
    expect(await send(operation, {}, { 'X-Api-Key': 'not-a-real-key' })).toBeError(401, 'unknown api key');
  });

  it(`refuses ${wrongMethod} before looking at the key`, async () => {
    const res = await api.request(wrongMethod, operation.name, {});
    expect(res).toBeError(405, `method not allowed, use ${operation.method}`);
  });
});

describe('an unknown operation', () => {
  it('answers 404 in the envelope', async () => {
    expect(await api.get('getEverything', { api_key: 'x' })).toBeError(404, 'unknown operation');
  });
});
