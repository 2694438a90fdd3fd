/**
 * The OsmAnd protocol (Traccar Client, OsmAnd, GPSLogger), as Traccar's OsmAndProtocolDecoder reads it: the query form
 * (`?id=…&lat=…&lon=…`, in the URL or form-encoded in the body) and the JSON form of the current Traccar Client
 * (`{"device_id", "location": {...}}`, `location` also a list). Units: query speed in knots, JSON speed in m/s,
 * odometer in metres (docs/devices.md, "OsmAnd").
 */
import { isPlainObject } from '../domain/json.ts';
import { BadRequest } from '../errors.ts';
import {
  deviceIdOf,
  flagOf,
  instantOf,
  KNOTS_TO_KMH,
  METRES_PER_SECOND_TO_KMH,
  numberOf,
  readingOf,
  traccarAttributes,
} from './readings.ts';

/**
 * The record without what the entry point adds (protocol, received_at): its fix checked, its readings as the
 * device sent them, for the record's check to keep or drop (device-endpoint.ts).
 */
export type DecodedPosition = { imei: string; gps_datetime: string; latitude: number; longitude: number } & Record<string, unknown>;

/** What a request carries: its query parameters, and its body as form parameters or as parsed JSON. */
export interface OsmAndRequest {
  params: Record<string, string>;
  json?: unknown;
  /** a point without a time is stamped with this (as Traccar does) */
  receivedAt: string;
}

export function decodeOsmAnd({ params, json, receivedAt }: OsmAndRequest): DecodedPosition[] {
  return json === undefined ? [decodeQuery(params, receivedAt)] : decodeJson(json, receivedAt);
}

/** A negative reading means "unknown" in the apps (speed -1, heading -1, battery level -1). */
const unknownWhenNegative = (value: unknown): unknown => (typeof value === 'number' && value < 0 ? null : value);

function decodeQuery(params: Record<string, string>, receivedAt: string): DecodedPosition {
  const imei = params.id ?? params.deviceid;
  if (!imei) throw new BadRequest('id is required');
  const [lat, lon] = params.location !== undefined ? params.location.split(',') : [params.lat, params.lon];
  const latitude = numberOf(lat, 'lat');
  const longitude = numberOf(lon, 'lon');
  if (latitude === undefined || longitude === undefined) throw new BadRequest('lat and lon (or location=lat,lon) are required');
  return {
    imei,
    gps_datetime: params.timestamp === undefined ? receivedAt : instantOf(params.timestamp, 'timestamp'),
    latitude,
    longitude,
    speed: unknownWhenNegative(readingOf(params.speed, KNOTS_TO_KMH)),
    heading: unknownWhenNegative(readingOf(params.bearing ?? params.heading)),
    ...traccarAttributes(params),
    valid: flagOf(params.valid),
  };
}

function decodeJson(body: unknown, receivedAt: string): DecodedPosition[] {
  if (!isPlainObject(body)) throw new BadRequest('request body must be a JSON object');
  const imei = deviceIdOf(body.device_id, 'device_id');
  if (!imei) throw new BadRequest('device_id is required');
  const locations = Array.isArray(body.location) ? body.location : [body.location];
  if (locations.length === 0) throw new BadRequest('location is required');
  return locations.map((location, index) =>
    decodeLocation(imei, location, locations.length > 1 ? `location[${index}]` : 'location', receivedAt),
  );
}

function decodeLocation(imei: string, location: unknown, name: string, receivedAt: string): DecodedPosition {
  if (!isPlainObject(location) || !isPlainObject(location.coords)) throw new BadRequest(`${name}.coords is required`);
  const { coords } = location;
  const latitude = numberOf(coords.latitude, `${name}.coords.latitude`);
  const longitude = numberOf(coords.longitude, `${name}.coords.longitude`);
  if (latitude === undefined || longitude === undefined) throw new BadRequest(`${name}.coords.latitude and longitude are required`);
  return {
    imei,
    gps_datetime: location.timestamp === undefined ? receivedAt : instantOf(location.timestamp, `${name}.timestamp`),
    latitude,
    longitude,
    speed: unknownWhenNegative(readingOf(coords.speed, METRES_PER_SECOND_TO_KMH)),
    heading: unknownWhenNegative(readingOf(coords.heading)),
    odometer_km: readingOf(location.odometer, 1 / 1000),
  };
}
