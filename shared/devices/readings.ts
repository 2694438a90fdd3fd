/**
 * Reading a device's values into the normalized record's units. Devices send numbers as numbers or as text (query
 * strings); a value that is not one is refused with the parameter's name, so the device's owner sees what is wrong.
 */
import { BadRequest } from '../errors.ts';

export const KNOTS_TO_KMH = 1.852;
export const METRES_PER_SECOND_TO_KMH = 3.6;

type Raw = unknown;

/** A number from a number or numeric text; absent, null or blank is undefined. */
export function numberOf(value: Raw, name: string): number | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(number)) throw new BadRequest(`${name} must be a number`);
  return number;
}

/** A number scaled into our unit (knots → km/h, m → km…), or null when absent. */
export function scaled(value: Raw, name: string, factor: number): number | null {
  const number = numberOf(value, name);
  return number === undefined ? null : number * factor;
}

/** true/false, 1/0 as number or text; absent is null. */
export function booleanOf(value: Raw, name: string): boolean | null {
  if (value === undefined || value === null || value === '') return null;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw new BadRequest(`${name} must be true or false`);
}

/** Text as sent; numbers become their text (an iButton id may come as a number); absent is null. */
export function textOf(value: Raw, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new BadRequest(`${name} must be text`);
}

/**
 * A device's time: seconds or milliseconds since 1970 (below 2^31 it is seconds, as Traccar reads it), ISO 8601
 * (UTC when it names no offset), or `yyyy-MM-dd HH:mm:ss` (UTC).
 */
export function instantOf(value: Raw, name: string): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  let epochMs = Number.NaN;
  if (/^\d{1,15}$/.test(text)) {
    const number = Number(text);
    epochMs = number < 2 ** 31 - 1 ? number * 1000 : number;
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) {
    const iso = text.replace(' ', 'T');
    epochMs = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
  }
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) {
    throw new BadRequest(`${name} must be seconds or milliseconds since 1970, or an ISO 8601 time`);
  }
  return date.toISOString();
}

/**
 * The readings Traccar names as attributes (its Position keys and units), which the OsmAnd query form carries as
 * parameters too: ignition, odometer (m), hours (ms), fuel, power and battery (V), deviceTemp and temp1 (°C),
 * driverUniqueId, sat. `prefix` names where they were in the request, for the 400's message.
 */
export function traccarAttributes(attributes: Record<string, unknown>, prefix = '') {
  const name = (key: string) => `${prefix}${key}`;
  return {
    ignition: booleanOf(attributes.ignition, name('ignition')),
    odometer_km: scaled(attributes.odometer, name('odometer'), 1 / 1000),
    engine_hours: scaled(attributes.hours, name('hours'), 1 / 3_600_000),
    fuel_raw: numberOf(attributes.fuel, name('fuel')) ?? null,
    supp_volt: numberOf(attributes.power, name('power')) ?? null,
    int_batt_volt: numberOf(attributes.battery, name('battery')) ?? null,
    int_temp: numberOf(attributes.deviceTemp, name('deviceTemp')) ?? null,
    ext_temp: numberOf(attributes.temp1, name('temp1')) ?? null,
    driver_tag_id: textOf(attributes.driverUniqueId, name('driverUniqueId')),
    satellites: numberOf(attributes.sat ?? attributes.satellites, name('sat')) ?? null,
  };
}
