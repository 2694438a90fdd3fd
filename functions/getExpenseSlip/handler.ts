import * as v from 'valibot';
import { SlipRecord, toSlipRecord } from '../../shared/contracts/expense-slips.ts';
import { operation } from '../../shared/operation.ts';
import { findSlipForUser } from '../../shared/store/expense-slips.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

export const GetExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

export const GetExpenseSlipOutput = v.object({ slip: SlipRecord });

export const handler = operation('getExpenseSlip', GetExpenseSlipInput, async ({ user, input }) => {
  const slip = await findSlipForUser(user.userUid, input.slip_uid);
  return { slip: toSlipRecord(slip) };
}, { output: GetExpenseSlipOutput });
