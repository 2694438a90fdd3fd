/** User locations on the wire: the parameters addUserLocation and editUserLocation share, and the record. */
import * as v from 'valibot';
import {
  LOCATION_TYPES,
  MAX_POLYGON_VERTICES,
  MAX_RADIUS_KM,
  MAX_SPEED_LIMIT,
  MIN_POLYGON_VERTICES,
  pointsText,
  RADIUS_DECIMALS,
  SPEED_DECIMALS,
  type UserLocation,
} from '../domain/user-location.ts';
import { flagField, integerField, optionalFlag, optionalNumber, optionalText } from './primitives.ts';
import { jsonText } from './wire.ts';

const RADIUS_MESSAGE = `radius must be a number greater than 0 and at most ${MAX_RADIUS_KM} (km)`;
const SPEED_MESSAGE = `speed must be a number from 0 to ${MAX_SPEED_LIMIT} (km/h)`;
const LOCATION_TYPE_MESSAGE = "location_type must be 'point' or 'polygon'";

/** The optional parameters addUserLocation and editUserLocation share, in the spec's order. */
export const userLocationOptions = {
  color: optionalText('color', 50),
  radius: v.optional(
    v.pipe(v.unwrap(optionalNumber('radius', RADIUS_DECIMALS, MAX_RADIUS_KM, RADIUS_MESSAGE)), v.gtValue(0, RADIUS_MESSAGE)),
  ),
  location_type: v.optional(
    v.pipe(v.string(LOCATION_TYPE_MESSAGE), v.trim(), v.toLowerCase(), v.picklist(LOCATION_TYPES, LOCATION_TYPE_MESSAGE)),
  ),
  // Checked by polygonVertices once the location type is known: a point ignores them.
  points: v.pipe(
    v.unknown(),
    v.metadata({
      wire: {
        anyOf: [
          {
            type: 'array',
            minItems: MIN_POLYGON_VERTICES,
            maxItems: MAX_POLYGON_VERTICES,
            items: {
              type: 'object',
              properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
              required: ['lat', 'lng'],
            },
          },
          jsonText('the same array'),
        ],
      },
    }),
  ),
  icon: optionalText('icon', 255),
  speed: v.optional(
    v.pipe(v.unwrap(optionalNumber('speed', SPEED_DECIMALS, MAX_SPEED_LIMIT, SPEED_MESSAGE)), v.minValue(0, SPEED_MESSAGE)),
  ),
  no_go: optionalFlag('no_go'),
  only_push: optionalFlag('only_push'),
};

export const UserLocationRecord = v.object({
  user_location_uid: integerField,
  latitude: v.number(),
  longitude: v.number(),
  description: v.string(),
  icon: v.string(),
  color: v.string(),
  radius: v.number(),
  location_type: v.picklist(LOCATION_TYPES),
  points: v.string(),
  speed: v.number(),
  no_go: flagField,
  only_push: flagField,
});

export function toUserLocationRecord(location: UserLocation): v.InferOutput<typeof UserLocationRecord> {
  return {
    user_location_uid: location.userLocationUid,
    latitude: location.latitude,
    longitude: location.longitude,
    description: location.description,
    icon: location.icon,
    color: location.color,
    radius: location.radiusKm,
    location_type: location.locationType,
    points: pointsText(location.points),
    speed: location.speedLimit,
    no_go: location.noGo ? 1 : 0,
    only_push: location.onlyPush ? 1 : 0,
  };
}
