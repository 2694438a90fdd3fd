import { operation } from '../../shared/operation.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const created = await addExpenseType(user.userUid, input.expense_name);
  return { type: created.type, name: created.name };
});
