import { toSlipRecord } from '../../shared/contracts/expense-slips.ts';
import { operation } from '../../shared/operation.ts';
import { listExpenseSlips } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

/** event_datetime is the user's local time as entered, so the user's days compare as text, with no offset. */
export const handler = operation(contract, async ({ user, input }) => {
  const startDate = `${input.start_date} 00:00:00`;
  const endDate = `${input.end_date} 23:59:59`;
  const slips = await listExpenseSlips(user.userUid, input.vehicle_uid, startDate, endDate);
  return {
    vehicle_uid: input.vehicle_uid,
    start_date: startDate,
    end_date: endDate,
    cnt: slips.length,
    slips: slips.map(toSlipRecord),
  };
});
