import { operation } from '../../shared/operation.ts';
import { addExpenseSlip } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const slip = await addExpenseSlip(user.userUid, {
    vehicleUid: input.vehicle_uid,
    type: input.type,
    amount: input.amount,
    eventDatetime: input.event_datetime,
    qty: input.qty,
    slipNumber: input.slip_number ?? '',
    comment: input.comment ?? '',
  });
  return { slip_uid: slip.slipUid };
});
