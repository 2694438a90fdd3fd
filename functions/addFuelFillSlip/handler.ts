import { formatDateTime } from '../../shared/domain/time.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { addFillSlip } from '../../shared/store/expense-slips.ts';
import { findFuelFill } from '../../shared/store/fuel-fills.ts';
import { findVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/** A type-1 slip dated at the fill (in the user's offset); the store keeps it to one slip per fill. */
export const handler = operation(contract, async ({ user, input }) => {
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
});
