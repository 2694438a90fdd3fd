import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { deleteExpenseSlip } from '../../shared/store/expense-slips.ts';

export const DeleteExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

export const DeleteExpenseSlipOutput = v.object({ slip_uid: integerField });

export const handler = operation('deleteExpenseSlip', DeleteExpenseSlipInput, async ({ user, input }) => {
  await deleteExpenseSlip(user.userUid, input.slip_uid);
  return { slip_uid: input.slip_uid };
}, { output: DeleteExpenseSlipOutput });
