/** The spec's slip record (expense, fuel and fill slips). */
import * as v from 'valibot';
import type { NamedExpenseSlip } from '../domain/expense-slip.ts';
import { dateTimeField, decimalTextField, integerField } from './primitives.ts';

export const SlipRecord = v.object({
  slip_uid: integerField,
  vehicle_uid: integerField,
  type: integerField,
  type_name: v.string(),
  slip_number: v.string(),
  slip_qty: decimalTextField,
  slip_amount: decimalTextField,
  event_datetime: dateTimeField,
  comment: v.string(),
});

/** The spec's slip record: ids integers, amounts decimal text. */
export function toSlipRecord(slip: NamedExpenseSlip): v.InferOutput<typeof SlipRecord> {
  return {
    slip_uid: slip.slipUid,
    vehicle_uid: slip.vehicleUid,
    type: slip.type,
    type_name: slip.typeName,
    slip_number: slip.slipNumber,
    slip_qty: slip.qty,
    slip_amount: slip.amount,
    event_datetime: slip.eventDatetime,
    comment: slip.comment,
  };
}
