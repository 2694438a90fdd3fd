import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

describe('addExpenseType', () => {
  it('creates a type and answers its new integer id and name', async () => {
    const user = await givenUser();
    const res = await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
    expect(res).toBeSuccess();
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', type: expect.any(Number), name: 'Tolls' });
    expect(res.body.type).toBeGreaterThan(2);
  });

  it('accepts the key in the query string and a JSON body', async () => {
    const user = await givenUser();
    const res = await callOperation('addExpenseType', { expense_name: 'Parking' }, { json: true, query: { api_key: user.key } });
    expect(res).toBeSuccess();
    expect(res.body.name).toBe('Parking');
  });

  it('trims the name and keeps unicode as given', async () => {
    const user = await givenUser();
    const res = await callOperation('addExpenseType', { api_key: user.key, expense_name: '  Péage 🚗 Straße  ' });
    expect(res.body.name).toBe('Péage 🚗 Straße');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('says "expense_name is required" when the name is %s', async (_case, expense_name) => {
    const user = await givenUser();
    expect(await callOperation('addExpenseType', { api_key: user.key, expense_name })).toBeError(400, 'expense_name is required');
  });

  it('accepts 255 characters and refuses 256', async () => {
    const user = await givenUser();
    const longest = await callOperation('addExpenseType', { api_key: user.key, expense_name: 'é'.repeat(255) });
    const tooLong = await callOperation('addExpenseType', { api_key: user.key, expense_name: 'x'.repeat(256) });
    expect(longest).toBeSuccess();
    expect(tooLong).toBeError(400, 'expense_name is too long (max 255 chars)');
  });

  it('refuses a name another live type of the user has, ignoring case and spaces', async () => {
    // Prepare
    const user = await givenUser();
    await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
    // Act
    const res = await callOperation('addExpenseType', { api_key: user.key, expense_name: ' tOLLS ' });
    // Assess
    expect(res).toBeError(409, 'expense type already exists');
  });

  it('refuses "Fuel", which type 2 holds for everyone', async () => {
    const user = await givenUser();
    expect(await callOperation('addExpenseType', { api_key: user.key, expense_name: 'fuel' })).toBeError(
      409,
      'expense type already exists',
    );
  });

  it('allows the name of a deleted type again', async () => {
    const user = await givenUser();
    const first = await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
    await callOperation('deleteExpenseType', { api_key: user.key, type: first.body.type });
    const again = await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' });
    expect(again).toBeSuccess();
    expect(again.body.type).not.toBe(first.body.type);
  });

  it('lets two users have a type of the same name', async () => {
    const [a, b] = [await givenUser(), await givenUser()];
    expect(await callOperation('addExpenseType', { api_key: a.key, expense_name: 'Tolls' })).toBeSuccess();
    expect(await callOperation('addExpenseType', { api_key: b.key, expense_name: 'Tolls' })).toBeSuccess();
  });

  it('creates exactly one type when 20 requests race with one name', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        callOperation('addExpenseType', { api_key: user.key, expense_name: i % 2 ? 'Tolls' : 'tolls ' }),
      ),
    );
    // Assess
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expect(res).toBeError(409, 'expense type already exists');
    const listed = await callOperation('getExpenseTypes', { api_key: user.key });
    expect(listed.body.cnt).toBe(2);
  });

  it('refuses a malformed JSON body with 400', async () => {
    const user = await givenUser();
    const res = await api.post(
      'addExpenseType',
      {},
      { query: { api_key: user.key }, rawBody: '{"expense_name":', headers: { 'Content-Type': 'application/json' } },
    );
    expect(res).toBeError(400, 'request body is not valid JSON');
  });

  it.each([
    [123, '123'],
    [0, '0'],
  ])('takes a number in a JSON body as its text (%s)', async (expense_name, expected) => {
    const user = await givenUser();
    const res = await callOperation('addExpenseType', { api_key: user.key, expense_name }, { json: true });
    expect(res.body.name).toBe(expected);
  });
});
