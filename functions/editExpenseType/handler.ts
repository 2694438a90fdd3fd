import { operation } from '../../shared/operation.ts';
import { renameExpenseType } from '../../shared/store/expense-types.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const renamed = await renameExpenseType(user.userUid, input.type, input.expense_name);
  return { type: renamed.type, name: renamed.name };
});
