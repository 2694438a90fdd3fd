import * as v from 'valibot';
import { byTime } from '../../shared/domain/tracking/history.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { formatDateTime } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { dateTimeText, integer, nullableText } from '../../shared/responses.ts';
import { listPositions } from '../../shared/store/positions.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { dateTime, requiredInteger } from '../../shared/validation.ts';

const MAX_RANGE_MS = 7 * 86_400_000;
const MAX_LIMIT = 10_000;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_LIMIT}`;

/** A 'yyyy-mm-dd hh:mm:ss' in the user's offset → the UTC instant (ms). */
const instantOf = (text: string, offsetMinutes: number): number => Date.parse(`${text.replace(' ', 'T')}Z`) - offsetMinutes * 60_000;

export const GetPositionsInput = v.pipe(
  v.object({
    vehicle_uid: requiredInteger('vehicle_uid'),
    start_datetime: dateTime('start_datetime is required (yyyy-mm-dd hh:mm:ss)'),
    end_datetime: dateTime('end_datetime is required (yyyy-mm-dd hh:mm:ss)'),
    limit: v.optional(v.pipe(requiredInteger('limit', LIMIT_MESSAGE), v.minValue(1, LIMIT_MESSAGE), v.maxValue(MAX_LIMIT, LIMIT_MESSAGE)), MAX_LIMIT),
  }),
  v.check((input) => input.start_datetime <= input.end_datetime, 'start_datetime may not be after end_datetime'),
  v.check((input) => instantOf(input.end_datetime, 0) - instantOf(input.start_datetime, 0) <= MAX_RANGE_MS, 'datetime range may not exceed 7 days'),
);

const nullableNumber = v.nullable(v.number());

export const PositionRecordOutput = v.object({
  gps_datetime: dateTimeText,
  latitude: v.number(),
  longitude: v.number(),
  speed: nullableNumber,
  heading: nullableNumber,
  ignition: v.nullable(v.picklist([0, 1])),
  fuel_value: nullableNumber,
  odometer: nullableNumber,
  driver_id: nullableText,
  supp_volt: nullableNumber,
  int_batt_volt: nullableNumber,
  int_temp: nullableNumber,
  ext_temp: nullableNumber,
});

export const GetPositionsOutput = v.object({
  vehicle_uid: integer,
  imei: v.string(),
  start_datetime: dateTimeText,
  end_datetime: dateTimeText,
  cnt: integer,
  positions: v.array(PositionRecordOutput),
  /** present when more positions exist than were returned: the next call's start_datetime */
  next_start_datetime: v.optional(dateTimeText),
});

const toPositionRecord = (position: Position, fuelFactor: number): v.InferOutput<typeof PositionRecordOutput> => ({
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
});

/**
 * Read-only trip playback. The vehicle check (link and vehicle in one BatchGetItem) and the history Queries
 * (one per day, in parallel) run together: one round trip after the key lookup.
 */
export const handler = operation('getPositions', GetPositionsInput, async ({ user, input }) => {
  const from = new Date(instantOf(input.start_datetime, user.gmtOffsetMinutes)).toISOString();
  const to = new Date(instantOf(input.end_datetime, user.gmtOffsetMinutes) + 999).toISOString();
  const [vehicle, stored] = await Promise.all([getVehicleForUser(user.userUid, input.vehicle_uid), listPositions(input.vehicle_uid, from, to)]);
  const positions = byTime(stored);
  const returned = positions.slice(0, input.limit);
  const next = positions[input.limit];
  return {
    vehicle_uid: vehicle.vehicleUid,
    imei: vehicle.imei,
    start_datetime: input.start_datetime,
    end_datetime: input.end_datetime,
    cnt: returned.length,
    positions: returned.map((position) => toPositionRecord(position, vehicle.fuelFactor)),
    ...(next ? { next_start_datetime: formatDateTime(next.gps_datetime, user.gmtOffsetMinutes) } : {}),
  };
}, { output: GetPositionsOutput });
