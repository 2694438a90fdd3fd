import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { listExpenseTypes } from '../../shared/store/expense-types.ts';

export const GetExpenseTypesInput = v.object({});

export const handler = operation('getExpenseTypes', GetExpenseTypesInput, async ({ user }) => {
  const types = await listExpenseTypes(user.userUid);
  return { cnt: types.length, expense_types: types.map(({ type, name }) => ({ type, name })) };
});
