import { operation } from '../../shared/operation.ts';
import { deleteExpenseType } from '../../shared/store/expense-types.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteExpenseType(user.userUid, input.type);
  return { type: input.type };
});
