import * as v from 'valibot';
import { SlipRecord, toSlipRecord } from '../../shared/domain/expense-slip.ts';
import { operation } from '../../shared/operation.ts';
import { getSlipForUser } from '../../shared/store/expense-slips.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const GetExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

export const GetExpenseSlipOutput = v.object({ slip: SlipRecord });

export const handler = operation('getExpenseSlip', GetExpenseSlipInput, async ({ user, input }) => {
  const slip = await getSlipForUser(user.userUid, input.slip_uid);
  return { slip: toSlipRecord(slip) };
}, { output: GetExpenseSlipOutput });
