import { operation } from '../../shared/operation.ts';
import { deleteExpenseSlip } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteExpenseSlip(user.userUid, input.slip_uid);
  return { slip_uid: input.slip_uid };
});
