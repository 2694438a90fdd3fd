import { operation } from '../../shared/operation.ts';
import { listExpenseTypes } from '../../shared/store/expense-types.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => {
  const types = await listExpenseTypes(user.userUid);
  return { cnt: types.length, expense_types: types.map(({ type, name }) => ({ type, name })) };
});
