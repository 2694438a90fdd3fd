/** Reading a route's `stops` parameter: a JSON array or its text, each stop checked in order; the first fault answers. */
import { COORDINATE_DECIMALS, roundTo } from '../geo.ts';
import { parseJson } from '../json.ts';
import { MAX_STOPS, MIN_STOPS, type StopRequest } from './rules.ts';

export const MAX_STOP_DESCRIPTION = 255;

export const STOPS_REQUIRED = `stops is required and must be a JSON array of at least ${MIN_STOPS} stops`;

/** The stops, or the message for the first thing wrong with them. */
export function readStops(value: unknown): StopRequest[] | string {
  const list = typeof value === 'string' ? parseJson(value) : value;
  if (!Array.isArray(list) || list.length < MIN_STOPS) return STOPS_REQUIRED;
  if (list.length > MAX_STOPS) return `stops may have at most ${MAX_STOPS} stops`;
  const stops: StopRequest[] = [];
  for (const [index, item] of list.entries()) {
    const stop = readStop(item, `stop ${index + 1}`);
    if (typeof stop === 'string') return stop;
    stops.push(stop);
  }
  return stops;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER = /^-?\d{1,16}$/;

function readStop(item: unknown, name: string): StopRequest | string {
  const fields = (typeof item === 'object' && item !== null && !Array.isArray(item) ? item : {}) as Record<string, unknown>;
  const { user_location_uid: uid, lat, lng, description } = fields;
  const hasPoint = lat !== undefined && lng !== undefined;
  if (uid === undefined && !hasPoint) return `${name} must have user_location_uid or lat and lng`;
  if (uid !== undefined && (lat !== undefined || lng !== undefined))
    return `${name} must have either user_location_uid or lat and lng, not both`;
  if (uid !== undefined) {
    const userLocationUid = numberOf(uid, INTEGER);
    return userLocationUid !== undefined && Number.isSafeInteger(userLocationUid)
      ? { userLocationUid }
      : `${name} user_location_uid must be an integer`;
  }
  const point = { lat: coordinateOf(lat), lng: coordinateOf(lng) };
  if (point.lat === undefined || point.lng === undefined) return `${name} lat/lng must be numeric`;
  if (Math.abs(point.lat) > 90 || Math.abs(point.lng) > 180) return `${name} lat/lng out of range`;
  if (description === undefined || description === null) return { lat: point.lat, lng: point.lng };
  if (typeof description !== 'string') return `${name} description must be text`;
  const text = description.trim();
  if ([...text].length > MAX_STOP_DESCRIPTION) return `${name} description is too long (max ${MAX_STOP_DESCRIPTION} chars)`;
  return { lat: point.lat, lng: point.lng, ...(text ? { description: text } : {}) };
}

/** A JSON number, or decimal text as form clients write it (no exponents, no `+`). */
function numberOf(value: unknown, pattern: RegExp): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !pattern.test(value.trim())) return undefined;
  return Number(value);
}

/** A stop's coordinate as stored: kept to 7 decimals, so no value DynamoDB cannot hold reaches it. */
function coordinateOf(value: unknown): number | undefined {
  const number = numberOf(value, DECIMAL);
  return number === undefined ? undefined : roundTo(number, COORDINATE_DECIMALS);
}
