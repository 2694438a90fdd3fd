import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, type TestUser } from '../support/builders.ts';

const givenType = async (user: TestUser, expense_name: string): Promise<number> =>
  (await callOperation('addExpenseType', { api_key: user.key, expense_name })).body.type;

const namesOf = async (user: TestUser) =>
  (await callOperation('getExpenseTypes', { api_key: user.key })).body.expense_types.map((t: { name: string }) => t.name);

describe('editExpenseType', () => {
  it('renames the type and answers type and name', async () => {
    // Prepare
    const user = await givenUser();
    const type = await givenType(user, 'Tolls');
    // Act
    const res = await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'Road tolls' });
    // Assess
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', type, name: 'Road tolls' });
    expect(await namesOf(user)).toEqual(['Fuel', 'Road tolls']);
  });

  it('frees the old name for a new type', async () => {
    const user = await givenUser();
    const type = await givenType(user, 'Tolls');
    await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'Road tolls' });
    expect(await callOperation('addExpenseType', { api_key: user.key, expense_name: 'Tolls' })).toBeSuccess();
  });

  it('allows a change of case of the same name', async () => {
    const user = await givenUser();
    const type = await givenType(user, 'tolls');
    const res = await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'Tolls' });
    expect(res.body.name).toBe('Tolls');
  });

  it("refuses the name of another of the user's types", async () => {
    const user = await givenUser();
    await givenType(user, 'Parking');
    const type = await givenType(user, 'Tolls');
    expect(await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'PARKING' })).toBeError(
      409,
      'expense type already exists',
    );
    expect(await namesOf(user)).toEqual(['Fuel', 'Parking', 'Tolls']);
  });

  it('refuses to edit Fuel (type 2)', async () => {
    const user = await givenUser();
    expect(await callOperation('editExpenseType', { api_key: user.key, type: 2, expense_name: 'Diesel' })).toBeError(
      400,
      'type 2 (Fuel) is built in and cannot be edited',
    );
  });

  it.each(notIntegers)('says "type is required and must be an integer" when type is %s', async (_case, type) => {
    const user = await givenUser();
    expect(await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'X' })).toBeError(
      400,
      'type is required and must be an integer',
    );
  });

  it('checks type before expense_name', async () => {
    const user = await givenUser();
    expect(await callOperation('editExpenseType', { api_key: user.key })).toBeError(400, 'type is required and must be an integer');
  });

  it('says "expense_name is required" and "too long" for a bad name', async () => {
    const user = await givenUser();
    const type = await givenType(user, 'Tolls');
    expect(await callOperation('editExpenseType', { api_key: user.key, type, expense_name: ' ' })).toBeError(
      400,
      'expense_name is required',
    );
    expect(await callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'x'.repeat(256) })).toBeError(
      400,
      'expense_name is too long (max 255 chars)',
    );
  });

  it('does not find a type of another user, and leaves it unchanged', async () => {
    // Prepare
    const owner = await givenUser();
    const type = await givenType(owner, 'Tolls');
    const other = await givenUser();
    // Act
    const res = await callOperation('editExpenseType', { api_key: other.key, type, expense_name: 'Mine now' });
    // Assess
    expect(res).toBeError(404, 'expense type not found or not linked to this api key');
    expect(await namesOf(owner)).toEqual(['Fuel', 'Tolls']);
  });

  it('does not find a deleted type or an id that never existed', async () => {
    const user = await givenUser();
    const type = await givenType(user, 'Tolls');
    await callOperation('deleteExpenseType', { api_key: user.key, type });
    for (const id of [type, 999999999]) {
      expect(await callOperation('editExpenseType', { api_key: user.key, type: id, expense_name: 'X' })).toBeError(
        404,
        'expense type not found or not linked to this api key',
      );
    }
  });

  it('lets exactly one of two types take a name when both are renamed to it at once', async () => {
    const user = await givenUser();
    const [a, b] = [await givenType(user, 'A'), await givenType(user, 'B')];
    const results = await Promise.all(
      [a, b, a, b].map((type) => callOperation('editExpenseType', { api_key: user.key, type, expense_name: 'Shared' })),
    );
    expect(await namesOf(user).then((names: string[]) => names.filter((name) => name === 'Shared'))).toHaveLength(1);
    expect(results.some((res) => res.status === 409)).toBe(true);
  });
});
