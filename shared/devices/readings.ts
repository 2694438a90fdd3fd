/**
 * Reading a device's values into the normalized record's units. Devices send numbers as numbers or as text (query
 * strings). A point's fix (id, time, coordinates) that is not one is refused with the parameter's name, so the
 * device's owner sees what is wrong; a reading that is not one is passed on as sent, and the record's check
 * (positionOf) drops it from the point and counts it: one bad reading never loses a position.
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

/** What a device sent for a reading: undefined, null and blank are absent (null). */
const absent = (value: Raw): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A reading's number from a number or numeric text, scaled into our unit (knots → km/h, m → km…); anything else as sent. */
export function readingOf(value: Raw, factor = 1): unknown {
  if (absent(value)) return null;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(number) ? number * factor : value;
}

/** true/false, 1/0 as number or text; absent is null; anything else as sent. */
export function flagOf(value: Raw): unknown {
  if (absent(value)) return null;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return value;
}

/** Text as sent; numbers become their text (an iButton id may come as a number); absent is null; anything else as sent. */
export function textOf(value: Raw): unknown {
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'number' ? String(value) : value;
}

/** The device's identifier: text or a number, else the request is refused. */
export function deviceIdOf(value: Raw, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
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
 * driverUniqueId, sat.
 */
export function traccarAttributes(attributes: Record<string, unknown>) {
  return {
    ignition: flagOf(attributes.ignition),
    odometer_km: readingOf(attributes.odometer, 1 / 1000),
    engine_hours: readingOf(attributes.hours, 1 / 3_600_000),
    fuel_raw: readingOf(attributes.fuel),
    supp_volt: readingOf(attributes.power),
    int_batt_volt: readingOf(attributes.battery),
    int_temp: readingOf(attributes.deviceTemp),
    ext_temp: readingOf(attributes.temp1),
    driver_tag_id: textOf(attributes.driverUniqueId),
    satellites: readingOf(attributes.sat ?? attributes.satellites),
  };
}
