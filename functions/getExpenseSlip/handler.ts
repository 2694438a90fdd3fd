import { toSlipRecord } from '../../shared/contracts/expense-slips.ts';
import { operation } from '../../shared/operation.ts';
import { findSlipForUser } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

export const handler = operation('getExpenseSlip', contract, async ({ user, input }) => {
  const slip = await findSlipForUser(user.userUid, input.slip_uid);
  return { slip: toSlipRecord(slip) };
});
