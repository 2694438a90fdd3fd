/**
 * Traccar's position forwarding with `forward.type=json` (PositionForwarderJson): one position a request,
 * `{"position": {...}, "device": {...}}` as Traccar's model serializes them. The IMEI is the device's uniqueId;
 * speed is in knots; attributes use Traccar's keys and units (docs/devices.md, "Traccar server").
 */
import { isPlainObject } from '../domain/json.ts';
import { BadRequest } from '../errors.ts';
import type { DecodedPosition } from './osmand.ts';
import { booleanOf, instantOf, KNOTS_TO_KMH, numberOf, scaled, textOf, traccarAttributes } from './readings.ts';

export interface TraccarPosition extends DecodedPosition {
  /** the protocol the Traccar server decoded (teltonika, osmand, gt06…) */
  sourceProtocol: string | null;
}

export function decodeTraccar(body: unknown): TraccarPosition {
  if (!isPlainObject(body) || !isPlainObject(body.position) || !isPlainObject(body.device)) {
    throw new BadRequest('request body must be {"position": {...}, "device": {...}}');
  }
  const { position, device } = body;
  const imei = textOf(device.uniqueId, 'device.uniqueId');
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
    speed: scaled(position.speed, 'position.speed', KNOTS_TO_KMH),
    heading: numberOf(position.course, 'position.course') ?? null,
    valid: booleanOf(position.valid, 'position.valid'),
    ...traccarAttributes(attributes, 'attributes.'),
    device_type: textOf(device.model, 'device.model'),
    sourceProtocol: textOf(position.protocol, 'position.protocol'),
  };
}
