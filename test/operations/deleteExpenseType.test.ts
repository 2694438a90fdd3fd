import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

describe('deleteExpenseType', () => {
  it('soft-deletes the type and answers its id', async () => {
    // Prepare
    const user = await givenUser();
    const type = (await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' })).body.type;
    // Act
    const res = await callOperation('deleteExpenseType', { api_key: user.key, type });
    // Assess
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', type });
    expect((await callOperation('getExpenseTypes', { api_key: user.key })).body.cnt).toBe(1);
  });

  it('refuses to delete Fuel (type 2)', async () => {
    const user = await givenUser();
    expect(await callOperation('deleteExpenseType', { api_key: user.key, type: 2 })).toBeError(
      400,
      'type 2 (Fuel) is built in and cannot be deleted',
    );
  });

  it.each([[undefined], [''], ['x'], ['1.0'], ['１２']])('says "type is required and must be an integer" for %j', async (type) => {
    const user = await givenUser();
    expect(await callOperation('deleteExpenseType', { api_key: user.key, type })).toBeError(400, 'type is required and must be an integer');
  });

  it('does not find a type that is already deleted', async () => {
    const user = await givenUser();
    const type = (await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' })).body.type;
    await callOperation('deleteExpenseType', { api_key: user.key, type });
    expect(await callOperation('deleteExpenseType', { api_key: user.key, type })).toBeError(
      404,
      'expense type not found or not linked to this api key',
    );
  });

  it("does not find another user's type, and leaves it in place", async () => {
    // Prepare
    const owner = await givenUser();
    const type = (await callOperation('addExpenseType', { api_key: owner.key, expense_name: 'Tolls' })).body.type;
    const other = await givenUser();
    // Act
    const res = await callOperation('deleteExpenseType', { api_key: other.key, type });
    // Assess
    expect(res).toBeError(404, 'expense type not found or not linked to this api key');
    expect((await callOperation('getExpenseTypes', { api_key: owner.key })).body.cnt).toBe(2);
  });

  it('deletes once when the same delete races with itself', async () => {
    const user = await givenUser();
    const type = (await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' })).body.type;
    const results = await Promise.all(Array.from({ length: 5 }, () => callOperation('deleteExpenseType', { api_key: user.key, type })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 404)).toHaveLength(4);
  });
});
