import * as v from 'valibot';
import { formatDateTime } from '../../shared/domain/time.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { addFillSlip } from '../../shared/store/expense-slips.ts';
import { findFuelFill } from '../../shared/store/fuel-fills.ts';
import { findVehicleForUser } from '../../shared/store/vehicles.ts';
import { decimalText, optionalText, positiveDecimal, requiredInteger } from '../../shared/validation.ts';

export const AddFuelFillSlipInput = v.object({
  event_uid: requiredInteger('event_uid'),
  qty: positiveDecimal('qty', 3, 'qty is required and must be greater than 0'),
  amount: v.optional(decimalText('amount', 2, 'amount must be a number of 0 or more'), '0'),
  slip_number: optionalText('slip_number', 100),
});

export const AddFuelFillSlipOutput = v.object({ slip_uid: integer, event_uid: integer });

/** A type-1 slip dated at the fill (in the user's offset); the store keeps it to one slip per fill. */
export const handler = operation('addFuelFillSlip', AddFuelFillSlipInput, async ({ user, input }) => {
  const fill = await findFuelFill(input.event_uid);
  if (!fill || !(await findVehicleForUser(user.userUid, fill.vehicleUid))) throw NotFound.notLinked('fuel fill event');
  const slip = await addFillSlip({
    eventUid: fill.eventUid,
    vehicleUid: fill.vehicleUid,
    qty: input.qty,
    amount: input.amount,
    slipNumber: input.slip_number ?? '',
    eventDatetime: formatDateTime(fill.at, user.gmtOffsetMinutes),
  });
  return { slip_uid: slip.slipUid, event_uid: fill.eventUid };
}, { output: AddFuelFillSlipOutput });
