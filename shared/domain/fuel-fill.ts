/** Detected fuel fills and the spec's fuel fill record (getFuelFillReport). */
import * as v from 'valibot';
import { placeName } from './place.ts';
import { dateText, decimalText, integer, nullableText } from '../responses.ts';
import type { ExpenseSlip } from './expense-slip.ts';
import { formatDateTime } from './time.ts';

export interface FuelFill {
  eventUid: number;
  vehicleUid: number;
  /** UTC ISO instant the level started to rise */
  at: string;
  latitude: number;
  longitude: number;
  location: string;
  levelBefore: number | null;
  levelAfter: number;
  /** litres added, fuel_factor applied */
  fillQty: number;
  odometerKm: number;
  engineHours: number | null;
  operatorUid: number | null;
  operatorName: string | null;
  tripUid: number | null;
  /** since the previous fill; null on a vehicle's first fill */
  distanceKm: number | null;
  durationS: number | null;
  fuelUsed: number | null;
  slipUid: number | null;
}

const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));
const maybe = (value: number | null, decimals: number): number | null => (value === null ? null : round(value, decimals));

const nullableNumber = v.nullable(v.number());

export const FuelFillRecord = v.object({
  event_uid: integer,
  event_date: dateText,
  event_time: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}:\d{2}$/)),
  slip_number: nullableText,
  slip_uid: v.nullable(integer),
  slip_qty: v.nullable(decimalText),
  slip_amount: v.nullable(decimalText),
  slip_diff: nullableNumber,
  fill_qty: v.number(),
  operator_uid: v.nullable(integer),
  operator_name: nullableText,
  odo: v.number(),
  hours: nullableNumber,
  fuel_level_before: nullableNumber,
  fuel_level_after: v.number(),
  latitude: v.number(),
  longitude: v.number(),
  location: placeName('where the fill happened'),
  trip_uid: v.nullable(integer),
  distance: nullableNumber,
  duration: v.nullable(integer),
  fuel_used: nullableNumber,
  consumption_km_per_l: nullableNumber,
  consumption_l_per_hr: nullableNumber,
});

/**
 * The spec's record. Measured values are numbers (litres and km to 0.1, consumption to 0.01); slip fields are
 * the slip's decimal text; everything about the slip is null when no slip was captured.
 */
export function toFuelFillRecord(fill: FuelFill, slip: ExpenseSlip | undefined, offsetMinutes: number): v.InferOutput<typeof FuelFillRecord> {
  const local = formatDateTime(fill.at, offsetMinutes);
  const hours = fill.durationS === null ? null : fill.durationS / 3600;
  const computable = (value: number | null): value is number => value !== null && value > 0;
  return {
    event_uid: fill.eventUid,
    event_date: local.slice(0, 10),
    event_time: local.slice(11),
    slip_number: slip?.slipNumber ?? null,
    slip_uid: slip?.slipUid ?? null,
    slip_qty: slip?.qty ?? null,
    slip_amount: slip?.amount ?? null,
    slip_diff: slip ? round(Number(slip.qty) - round(fill.fillQty, 1), 3) : null,
    fill_qty: round(fill.fillQty, 1),
    operator_uid: fill.operatorUid,
    operator_name: fill.operatorName,
    odo: round(fill.odometerKm, 1),
    hours: maybe(fill.engineHours, 1),
    fuel_level_before: maybe(fill.levelBefore, 1),
    fuel_level_after: round(fill.levelAfter, 1),
    latitude: fill.latitude,
    longitude: fill.longitude,
    location: fill.location,
    trip_uid: fill.tripUid,
    distance: maybe(fill.distanceKm, 1),
    duration: fill.durationS === null ? null : Math.round(fill.durationS),
    fuel_used: maybe(fill.fuelUsed, 1),
    consumption_km_per_l: computable(fill.distanceKm) && computable(fill.fuelUsed) ? round(fill.distanceKm / fill.fuelUsed, 2) : null,
    consumption_l_per_hr: computable(fill.fuelUsed) && computable(hours) ? round(fill.fuelUsed / hours, 2) : null,
  };
}
