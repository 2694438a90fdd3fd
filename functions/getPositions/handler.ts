import type * as v from 'valibot';
import { formatDateTime } from '../../shared/domain/time.ts';
import { type PointFault, pointFaults } from '../../shared/domain/tracking/faults.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import { listPositions } from '../../shared/store/positions.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract, instantOf, MAX_POSITIONS, type PositionRecordOutput } from './contract.ts';

const toPositionRecord = (
  position: Position,
  fuelFactor: number,
  ignored: PointFault | null,
): v.InferOutput<typeof PositionRecordOutput> => ({
  gps_datetime: formatDateTime(position.gps_datetime),
  latitude: position.latitude,
  longitude: position.longitude,
  speed: position.speed,
  heading: position.heading,
  ignition: position.ignition === null ? null : position.ignition ? 1 : 0,
  fuel_value: position.fuel_raw === null ? null : Number((position.fuel_raw * fuelFactor).toFixed(3)),
  odometer: position.odometer_km,
  driver_id: position.driver_tag_id,
  supp_volt: position.supp_volt,
  int_batt_volt: position.int_batt_volt,
  int_temp: position.int_temp,
  ext_temp: position.ext_temp,
  ...(ignored ? { ignored } : {}),
});

/**
 * Read-only trip playback. The vehicle check (link and vehicle in one BatchGetItem) and the history Queries
 * (one page per day, in parallel) run together: one round trip after the key lookup. A page's position is the UTC instant
 * of its last point (points are unique by time).
 */
export const handler = operation(contract, async (context) => {
  const { user, input } = context;
  const page = await AnswerPage.open<string>(context, { maxPerAnswer: MAX_POSITIONS });
  const start = new Date(instantOf(input.start_datetime, user.gmtOffsetMinutes)).toISOString();
  const from = page.after && page.after > start ? page.after : start;
  const to = new Date(instantOf(input.end_datetime, user.gmtOffsetMinutes) + 999).toISOString();
  const [vehicle, stored] = await Promise.all([
    getVehicleForUser(user.userUid, input.vehicle_uid),
    // the page's points, the one its cursor stands on and the first left out
    listPositions(input.vehicle_uid, from, to, page.capacity.records + 2),
  ]);
  const positions = stored.positions.filter((position) => position.gps_datetime !== page.after);
  const ignored = pointFaults(positions, detectionSettings(vehicle.detection).maxSpeedKmh);
  const taken = page.addAll(
    positions.map((position, n) => toPositionRecord(position, vehicle.fuelFactor, ignored[n] ?? null)),
    (n) => (positions[n] as Position).gps_datetime,
  );
  const allTaken = taken === positions.length;
  const nextAt = allTaken ? stored.unreadFrom : positions[taken]?.gps_datetime;
  // All that was read fits, but a dense day was read only in part: the next page starts at its first unread point.
  if (allTaken && stored.unreadFrom) page.continueAfter(new Date(Date.parse(stored.unreadFrom) - 1).toISOString());
  return {
    vehicle_uid: vehicle.vehicleUid,
    imei: vehicle.imei,
    start_datetime: input.start_datetime,
    end_datetime: input.end_datetime,
    cnt: page.size,
    positions: page.records<ReturnType<typeof toPositionRecord>>(),
    ...(nextAt ? { next_start_datetime: formatDateTime(nextAt, user.gmtOffsetMinutes) } : {}),
    ...(await page.nextCursor()),
  };
});
