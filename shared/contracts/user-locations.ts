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
import { described, flagField, integerField, optionalFlag, optionalNumber, optionalText, requiredInteger } from './primitives.ts';

/** One of the user's saved locations, by its id. */
export const userLocationUid = described(requiredInteger('user_location_uid'), "One of the user's saved locations.");

/** What the place parameters mean where addUserLocation requires them and editUserLocation does not. */
export const PLACE_PARAMETERS = {
  description: "The location's name, shown wherever a vehicle is placed in it.",
  latitude: "Latitude of the point (a polygon's reference point), decimal degrees.",
  longitude: "Longitude of the point (a polygon's reference point), decimal degrees.",
};

import { DEPOT_POLYGON } from './demo-records.ts';
import { jsonText } from './wire.ts';

const RADIUS_MESSAGE = `radius must be a number greater than 0 and at most ${MAX_RADIUS_KM} (km)`;
const SPEED_MESSAGE = `speed must be a number from 0 to ${MAX_SPEED_LIMIT} (km/h)`;
const LOCATION_TYPE_MESSAGE = "location_type must be 'point' or 'polygon'";

/** The optional parameters addUserLocation and editUserLocation share, in the spec's order. */
export const userLocationOptions = {
  color: described(optionalText('color', 50), 'Colour on the map (free text, e.g. green); blank means blue.'),
  radius: described(
    v.optional(v.pipe(v.unwrap(optionalNumber('radius', RADIUS_DECIMALS, MAX_RADIUS_KM, RADIUS_MESSAGE)), v.gtValue(0, RADIUS_MESSAGE))),
    "Radius of a point's geofence in km.",
  ),
  location_type: described(
    v.optional(v.pipe(v.string(LOCATION_TYPE_MESSAGE), v.trim(), v.toLowerCase(), v.picklist(LOCATION_TYPES, LOCATION_TYPE_MESSAGE))),
    'point (a centre and a radius) or polygon (its points).',
  ),
  // Checked by polygonVertices once the location type is known: a point ignores them.
  points: described(
    v.pipe(
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
                // A vertex needs both, so a default states no server-side assumption (docs/decisions.md): a demo corner.
                properties: {
                  lat: { type: 'number', minimum: -90, maximum: 90, default: DEPOT_POLYGON[0].lat },
                  lng: { type: 'number', minimum: -180, maximum: 180, default: DEPOT_POLYGON[0].lng },
                },
                required: ['lat', 'lng'],
              },
            },
            jsonText('the same array'),
          ],
        },
      }),
    ),
    `A polygon's vertices in order, at least ${MIN_POLYGON_VERTICES} {lat, lng}: a JSON array, or its JSON text (as a form sends ` +
      'it, and as the record reads back); ignored for a point.',
  ),
  icon: described(optionalText('icon', 255), 'The icon shown for the location (free text); blank for none.'),
  speed: described(
    v.optional(v.pipe(v.unwrap(optionalNumber('speed', SPEED_DECIMALS, MAX_SPEED_LIMIT, SPEED_MESSAGE)), v.minValue(0, SPEED_MESSAGE))),
    'Speed limit in the zone, km/h; 0 for none.',
  ),
  no_go: described(optionalFlag('no_go'), '1: a no-go zone, which vehicles must not enter.'),
  only_push: described(optionalFlag('only_push'), '1: events in the zone are sent as push notifications only.'),
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
