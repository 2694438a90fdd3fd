import { toFuelFillRecord } from '../../shared/contracts/fuel-fills.ts';
import { userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { findSlips } from '../../shared/store/expense-slips.ts';
import { listFuelFills } from '../../shared/store/fuel-fills.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/**
 * Read-only: the fills the pipeline already detected. The vehicle check and the fills Query run together,
 * then one BatchGetItem brings the linked slips (two round trips after the key lookup).
 */
export const handler = operation(contract, async ({ user, input }) => {
  const { from, to } = userDayRange(input.start_date, input.end_date, user.gmtOffsetMinutes);
  const [vehicle, fills] = await Promise.all([
    getVehicleForUser(user.userUid, input.vehicle_uid),
    listFuelFills(input.vehicle_uid, from, to),
  ]);
  const slips = new Map((await findSlips(fills.flatMap((fill) => fill.slipUid ?? []))).map((slip) => [slip.slipUid, slip]));
  return {
    vehicle_uid: vehicle.vehicleUid,
    imei: vehicle.imei,
    vehicle_name: vehicle.name,
    registration_number: vehicle.regNum,
    fuel_factor: vehicle.fuelFactor,
    start_date: input.start_date,
    end_date: input.end_date,
    cnt: fills.length,
    fills: fills.map((fill) => toFuelFillRecord(fill, fill.slipUid === null ? undefined : slips.get(fill.slipUid), user.gmtOffsetMinutes)),
  };
});
