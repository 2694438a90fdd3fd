import { toFuelFillRecord } from '../../shared/contracts/fuel-fills.ts';
import type { FuelFill } from '../../shared/domain/fuel-fill.ts';
import { userDayRange } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import { findSlips } from '../../shared/store/expense-slips.ts';
import { readFuelFills } from '../../shared/store/fuel-fills.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/** What a linked slip's number, quantity and amounts add to a fill (a longer slip number meets the answer-encoding net). */
const SLIP_ALLOWANCE = 'x'.repeat(96);

/**
 * Read-only: the fills the pipeline already detected. The vehicle check and the fills Query run together,
 * then one BatchGetItem brings the linked slips (two round trips after the key lookup).
 */
export const handler = operation('getFuelFillReport', contract, async (context) => {
  const { user, input } = context;
  const { from, to } = userDayRange(input.start_date, input.end_date, user.gmtOffsetMinutes);
  const page = await AnswerPage.open<ItemPosition>(context);
  // The slips are read after the fills: a fill is counted with room for its slip's fields.
  const sized = (fill: FuelFill) => [toFuelFillRecord(fill, undefined, user.gmtOffsetMinutes), fill.slipUid === null ? '' : SLIP_ALLOWANCE];
  const [vehicle, fills] = await Promise.all([
    getVehicleForUser(user.userUid, input.vehicle_uid),
    readFuelFills(input.vehicle_uid, from, to, page.reader(sized)),
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
    ...(await page.nextCursor()),
  };
});
