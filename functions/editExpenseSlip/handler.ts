import { operation } from '../../shared/operation.ts';
import { editExpenseSlip } from '../../shared/store/expense-slips.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const changes = {
    amount: input.amount,
    qty: input.qty,
    slipNumber: input.slip_number,
    eventDatetime: input.event_datetime,
    comment: input.comment,
  };
  await editExpenseSlip(user.userUid, input.slip_uid, changes, input.type);
  return { slip_uid: input.slip_uid };
});
