/** The spec's slip record (expense, fuel and fill slips). */
import * as v from 'valibot';
import type { NamedExpenseSlip } from '../domain/expense-slip.ts';
import { dateTimeField, decimalTextField, described, integerField, optionalText, requiredInteger } from './primitives.ts';

/** A slip on a vehicle linked to the key's user, by its id. */
export const slipUid = described(requiredInteger('slip_uid'), "A slip on a vehicle linked to the key's user.");
export const slipNumber = described(optionalText('slip_number', 100), 'The number printed on the slip.');
export const slipComment = described(optionalText('comment', 1000), 'Free text about the slip.');

/** What slip parameters mean where add and edit check them differently (required or not, their own messages). */
export const SLIP_PARAMETERS = {
  amount: 'The amount paid, a decimal of at most 2 places (as text, or a JSON number read as its text); kept exactly as given.',
  qty: 'The quantity (litres for fuel), a decimal of at most 3 places; 0 when left out.',
  event_datetime: "When the expense happened, in the user's local time: yyyy-mm-dd hh:mm:ss, or yyyy-mm-dd for its midnight.",
};

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
