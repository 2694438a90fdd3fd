import { toSlipRecord } from '../../shared/contracts/expense-slips.ts';
import { operation } from '../../shared/operation.ts';
import { getSlipForUser } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const slip = await getSlipForUser(user.userUid, input.slip_uid);
  return { slip: toSlipRecord(slip) };
});
