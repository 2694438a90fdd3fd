import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

describe('getExpenseTypes', () => {
  it('lists Fuel (type 2) for a user with no types of their own', async () => {
    const user = await givenUser();
    const res = await callOperation('getExpenseTypes', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 1, expense_types: [{ type: 2, name: 'Fuel' }] });
  });

  it("lists the user's live types after Fuel, with integer ids, and hides deleted ones", async () => {
    // Prepare
    const user = await givenUser();
    const tolls = (await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' })).body.type;
    const parking = (await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Parking' })).body.type;
    await callOperation('deleteExpenseType', { api_key: user.key, type: tolls });
    // Act
    const res = await callOperation('getExpenseTypes', { api_key: user.key });
    // Assess
    expect(res.body).toEqual({
      version: '1',
      result: 'success',
      error_msg: '',
      cnt: 2,
      expense_types: [
        { type: 2, name: 'Fuel' },
        { type: parking, name: 'Parking' },
      ],
    });
  });

  it("never shows another user's types", async () => {
    const owner = await givenUser();
    await callOperation('addExpenseType', { api_key: owner.key, expense_name: 'Secret type' });
    const other = await givenUser();
    const res = await callOperation('getExpenseTypes', { api_key: other.key });
    expect(res.body.expense_types).toEqual([{ type: 2, name: 'Fuel' }]);
  });
});
