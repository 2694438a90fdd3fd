/** The spec's fuel fill record (getFuelFillReport). */
import * as v from 'valibot';
import type { ExpenseSlip } from '../domain/expense-slip.ts';
import type { FuelFill } from '../domain/fuel-fill.ts';
import { roundTo } from '../domain/geo.ts';
import { placeName } from '../domain/place.ts';
import { formatDateTime } from '../domain/time.ts';
import { dateField, decimalTextField, integerField, nullableNumberField, nullableTextField } from './primitives.ts';

const maybe = (value: number | null, decimals: number): number | null => (value === null ? null : roundTo(value, decimals));

export const FuelFillRecord = v.object({
  event_uid: integerField,
  event_date: dateField,
  event_time: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}:\d{2}$/)),
  slip_number: nullableTextField,
  slip_uid: v.nullable(integerField),
  slip_qty: v.nullable(decimalTextField),
  slip_amount: v.nullable(decimalTextField),
  slip_diff: nullableNumberField,
  fill_qty: v.number(),
  operator_uid: v.nullable(integerField),
  operator_name: nullableTextField,
  odo: v.number(),
  hours: nullableNumberField,
  fuel_level_before: nullableNumberField,
  fuel_level_after: v.number(),
  latitude: v.number(),
  longitude: v.number(),
  location: placeName('where the fill happened'),
  trip_uid: v.nullable(integerField),
  distance: nullableNumberField,
  duration: v.nullable(integerField),
  fuel_used: nullableNumberField,
  consumption_km_per_l: nullableNumberField,
  consumption_l_per_hr: nullableNumberField,
});

/**
 * The spec's record. Measured values are numbers (litres and km to 0.1, consumption to 0.01); slip fields are
 * the slip's decimal text; everything about the slip is null when no slip was captured.
 */
export function toFuelFillRecord(
  fill: FuelFill,
  slip: ExpenseSlip | undefined,
  offsetMinutes: number,
): v.InferOutput<typeof FuelFillRecord> {
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
    slip_diff: slip ? roundTo(Number(slip.qty) - roundTo(fill.fillQty, 1), 3) : null,
    fill_qty: roundTo(fill.fillQty, 1),
    operator_uid: fill.operatorUid,
    operator_name: fill.operatorName,
    odo: roundTo(fill.odometerKm, 1),
    hours: maybe(fill.engineHours, 1),
    fuel_level_before: maybe(fill.levelBefore, 1),
    fuel_level_after: roundTo(fill.levelAfter, 1),
    latitude: fill.latitude,
    longitude: fill.longitude,
    location: fill.location,
    trip_uid: fill.tripUid,
    distance: maybe(fill.distanceKm, 1),
    duration: fill.durationS === null ? null : Math.round(fill.durationS),
    fuel_used: maybe(fill.fuelUsed, 1),
    consumption_km_per_l: computable(fill.distanceKm) && computable(fill.fuelUsed) ? roundTo(fill.distanceKm / fill.fuelUsed, 2) : null,
    consumption_l_per_hr: computable(fill.fuelUsed) && computable(hours) ? roundTo(fill.fuelUsed / hours, 2) : null,
  };
}
