/**
 * Traccar's position forwarding with `forward.type=json` (PositionForwarderJson): one position a request,
 * `{"position": {...}, "device": {...}}` as Traccar's model serializes them. The IMEI is the device's uniqueId;
 * speed is in knots; attributes use Traccar's keys and units (docs/devices.md, "Traccar server").
 */
import { isPlainObject } from '../domain/json.ts';
import { BadRequest } from '../errors.ts';
import type { DecodedPosition } from './osmand.ts';
import { deviceIdOf, flagOf, instantOf, KNOTS_TO_KMH, numberOf, readingOf, textOf, traccarAttributes } from './readings.ts';

export type TraccarPosition = DecodedPosition & {
  /** the protocol the Traccar server decoded (teltonika, osmand, gt06…), when it is a short name */
  sourceProtocol: string | null;
};

export function decodeTraccar(body: unknown): TraccarPosition {
  if (!isPlainObject(body) || !isPlainObject(body.position) || !isPlainObject(body.device)) {
    throw new BadRequest('request body must be {"position": {...}, "device": {...}}');
  }
  const { position, device } = body;
  const imei = deviceIdOf(device.uniqueId, 'device.uniqueId');
  if (!imei) throw new BadRequest('device.uniqueId is required');
  const attributes = isPlainObject(position.attributes) ? position.attributes : {};
  const latitude = numberOf(position.latitude, 'position.latitude');
  const longitude = numberOf(position.longitude, 'position.longitude');
  if (latitude === undefined || longitude === undefined) throw new BadRequest('position.latitude and position.longitude are required');
  const time = position.fixTime ?? position.deviceTime;
  if (time === undefined || time === null) throw new BadRequest('position.fixTime is required');
  return {
    imei,
    gps_datetime: instantOf(time, 'position.fixTime'),
    latitude,
    longitude,
    speed: readingOf(position.speed, KNOTS_TO_KMH),
    heading: readingOf(position.course),
    valid: flagOf(position.valid),
    ...traccarAttributes(attributes),
    device_type: textOf(device.model),
    sourceProtocol: protocolName(position.protocol),
  };
}

/** Traccar's protocol names are short words; anything else names no protocol (the record says `traccar`). */
const protocolName = (value: unknown): string | null => (typeof value === 'string' && /^[a-z0-9_-]{1,32}$/i.test(value) ? value : null);
