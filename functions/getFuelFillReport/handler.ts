import * as v from 'valibot';
import { FuelFillRecord, toFuelFillRecord } from '../../shared/domain/fuel-fill.ts';
import { inclusiveDayCount, userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { dateText, integer, nullableText } from '../../shared/responses.ts';
import { findSlips } from '../../shared/store/expense-slips.ts';
import { listFuelFills } from '../../shared/store/fuel-fills.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { dateRangeEntries, requiredInteger, startNotAfterEnd } from '../../shared/validation.ts';

const MAX_RANGE_DAYS = 366;

export const GetFuelFillReportInput = v.pipe(
  v.object({ vehicle_uid: requiredInteger('vehicle_uid'), ...dateRangeEntries }),
  startNotAfterEnd(),
  v.check((input) => inclusiveDayCount(input.start_date, input.end_date) <= MAX_RANGE_DAYS, 'date range may not exceed 366 days'),
);

export const GetFuelFillReportOutput = v.object({
  vehicle_uid: integer,
  imei: v.string(),
  vehicle_name: v.string(),
  registration_number: nullableText,
  fuel_factor: v.number(),
  start_date: dateText,
  end_date: dateText,
  cnt: integer,
  fills: v.array(FuelFillRecord),
});

/**
 * Read-only: the fills the pipeline already detected. The vehicle check and the fills Query run together,
 * then one BatchGetItem brings the linked slips (two round trips after the key lookup).
 */
export const handler = operation('getFuelFillReport', GetFuelFillReportInput, async ({ user, input }) => {
  const { from, to } = userDayRange(input.start_date, input.end_date, user.gmtOffsetMinutes);
  const [vehicle, fills] = await Promise.all([getVehicleForUser(user.userUid, input.vehicle_uid), listFuelFills(input.vehicle_uid, from, to)]);
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
}, { output: GetFuelFillReportOutput });
