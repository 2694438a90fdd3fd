import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { deleteExpenseSlip } from '../../shared/store/expense-slips.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const DeleteExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

export const DeleteExpenseSlipOutput = v.object({ slip_uid: integer });

export const handler = operation('deleteExpenseSlip', DeleteExpenseSlipInput, async ({ user, input }) => {
  await deleteExpenseSlip(user.userUid, input.slip_uid);
  return { slip_uid: input.slip_uid };
}, { output: DeleteExpenseSlipOutput });
