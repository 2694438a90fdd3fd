/** The errors every operation shares, checked for every registry entry so a new operation cannot skip them. */
import { describe, expect, it } from 'vitest';
import { operations } from '../../functions/registry.ts';
import { PERSON_ONLY } from '../../shared/middleware/api-key-auth.ts';
import { setApiKeyLocked } from '../../shared/store/api-keys.ts';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

/**
 * The operations an api key may call. The person-only ones (keys and device tokens) share what follows their own way:
 * below, and in their own files (test/operations/*ApiKey*.test.ts, *DeviceToken*.test.ts) with a signed-in person.
 */
const keyOperations = operations.filter((operation) => !('personOnly' in operation && operation.personOnly));
const personOperations = operations.filter((operation) => !keyOperations.includes(operation));

const send = (operation: (typeof operations)[number], params: Record<string, string>, headers?: Record<string, string>) =>
  operation.method === 'GET' ? api.get(operation.name, params, { headers }) : api.post(operation.name, params, { headers });

describe.each(keyOperations.map((operation) => [operation.name, operation] as const))('%s', (_name, operation) => {
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

describe.each(personOperations.map((operation) => [operation.name, operation] as const))(
  '%s (a signed-in person only)',
  (_name, operation) => {
    it('refuses an api key, even a valid one, so a leaked key cannot make or unlock keys', async () => {
      const user = await givenUser();
      expect(await send(operation, { api_key: user.key })).toBeError(403, PERSON_ONLY);
    });

    it(`refuses ${operation.method === 'GET' ? 'POST' : 'GET'} before looking at the credentials`, async () => {
      const res = await api.request(operation.method === 'GET' ? 'POST' : 'GET', operation.name, {});
      expect(res).toBeError(405, `method not allowed, use ${operation.method}`);
    });
  },
);

describe('an unknown operation', () => {
  it('answers 404 in the envelope', async () => {
    expect(await api.get('getEverything', { api_key: 'x' })).toBeError(404, 'unknown operation');
  });
});

describe('api key sources', () => {
  let typesAdded = 0;
  /** addExpenseType with the key spread over header, body and query string as given. */
  async function addTypeWith({ header, body, query, json = false }: { header?: string; body?: string; query?: string; json?: boolean }) {
    const name = `Tolls ${++typesAdded}`;
    const bodyParams = { expense_name: name, ...(body === undefined ? {} : { api_key: body }) };
    return callOperation('addExpenseType', bodyParams, {
      json,
      headers: header === undefined ? {} : { 'X-Api-Key': header },
      query: query === undefined ? {} : { api_key: query },
    });
  }

  it.each([
    ['a blank header', { header: '  ' }],
    ['an empty form body key', { body: '' }],
    ['a blank JSON body key', { body: ' ', json: true }],
    ['a blank header and a blank body key', { header: '', body: ' ' }],
  ])('finds the query string key behind %s', async (_case, blanks) => {
    const user = await givenUser();
    expect(await addTypeWith({ ...blanks, query: user.key })).toBeSuccess();
  });

  it.each([
    ['a form', false],
    ['a JSON', true],
  ])('finds %s body key behind a blank query string key and a blank header', async (_case, json) => {
    const user = await givenUser();
    expect(await addTypeWith({ header: ' ', body: user.key, query: '', json })).toBeSuccess();
  });

  it('says "api key missing" when header, body and query string are all blank', async () => {
    expect(await addTypeWith({ header: ' ', body: '', query: '  ' })).toBeError(401, 'api key missing');
  });

  it('prefers the header, then the body, then the query string among keys that are given', async () => {
    const user = await givenUser();
    expect(await addTypeWith({ header: user.key, body: 'wrong', query: 'wrong' })).toBeSuccess();
    expect(await addTypeWith({ body: user.key, query: 'wrong' })).toBeSuccess();
    expect(await addTypeWith({ body: 'wrong', query: user.key, json: true })).toBeError(401, 'unknown api key');
  });
});

describe.each(keyOperations.filter((operation) => operation.method === 'POST').map((operation) => [operation.name] as const))(
  '%s with a body that is not JSON parameters',
  (name) => {
    const broken = (query: Record<string, string>, body: string) =>
      api.post(name, {}, { query, rawBody: body, headers: { 'Content-Type': 'application/json' } });

    it('checks the key first: 401 "api key missing" without one', async () => {
      expect(await broken({}, '{"api_key": ')).toBeError(401, 'api key missing');
      expect(await broken({}, '[1, 2]')).toBeError(401, 'api key missing');
    });

    it('answers a body over 256 KB with 413 before the key: the size is a transport limit', async () => {
      expect(await broken({}, `{"x":"${'x'.repeat(300 * 1024)}"}`)).toBeError(413, 'request body too large (max 256 KB)');
    });

    it('answers 400 with a valid key', async () => {
      const user = await givenUser();
      expect((await broken({ api_key: user.key }, '{"expense_name": ')).status).toBe(400);
    });
  },
);
