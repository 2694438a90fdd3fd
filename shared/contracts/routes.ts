/** Routes on the wire: the `stops` parameter, the route record (addRoute, getRoute) and the summary line (getRoutes). */
import * as v from 'valibot';
import { PLACE_NAMING } from '../domain/place.ts';
import { MAX_STOP_DESCRIPTION, readStops } from '../domain/route/parse.ts';
import { MAX_STOPS, MIN_STOPS, REUSE_RADIUS_KM, type Route, routeTotals } from '../domain/route/rules.ts';
import { formatDateTime } from '../domain/time.ts';
import { dateTimeField, described, integerField, requiredInteger } from './primitives.ts';
import { decimalTextUpTo, jsonText } from './wire.ts';

/** The wire forms of a stop's numbers (JSON numbers or their text), for the document. */
const integerWire = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d{1,16}$' }] };
const coordinateWire = (range: number) => ({
  anyOf: [
    { type: 'number', minimum: -range, maximum: range },
    { type: 'string', pattern: decimalTextUpTo(range) },
  ],
});

/** `stops`: a JSON array, or its text in a form field; each item checked in order, the first failure answers. */
export const stopList = v.pipe(
  v.unknown(),
  v.description(
    `The stops in order, ${MIN_STOPS} to ${MAX_STOPS}: each {"user_location_uid": id} of a saved location, or {"lat", "lng", ` +
      `"description"?} of a point (a saved location within ${REUSE_RADIUS_KM * 1000} m is reused, otherwise the point is saved). ` +
      'A JSON array, or its JSON text in a form.',
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const stops = readStops(dataset.value);
    if (typeof stops === 'string') {
      addIssue({ message: stops });
      return NEVER;
    }
    return stops;
  }),
  v.metadata({
    wire: {
      anyOf: [
        {
          type: 'array',
          minItems: MIN_STOPS,
          maxItems: MAX_STOPS,
          items: {
            anyOf: [
              { type: 'object', title: 'Saved location', properties: { user_location_uid: integerWire }, required: ['user_location_uid'] },
              {
                type: 'object',
                title: 'Point',
                properties: {
                  lat: coordinateWire(90),
                  lng: coordinateWire(180),
                  description: { type: ['string', 'null'], maxLength: MAX_STOP_DESCRIPTION },
                },
                required: ['lat', 'lng'],
              },
            ],
          },
        },
        jsonText('the same array'),
      ],
    },
  }),
);

/** One of the user's routes, by its id. */
export const routeUid = described(requiredInteger('route_uid'), "One of the user's routes.");

/** The route as addRoute answers it and getRoute returns it. */
export const RouteRecord = v.object({
  route_uid: integerField,
  route_name: v.string(),
  vehicle_uid: v.nullable(integerField),
  directions_source: v.string(),
  stops: v.array(
    v.object({
      seq: integerField,
      user_location_uid: integerField,
      description: v.pipe(
        v.string(),
        v.description(`the stop's location's description; a new stop sent without one is named as trips' places are: ${PLACE_NAMING}`),
      ),
      latitude: v.number(),
      longitude: v.number(),
      created: v.boolean(),
    }),
  ),
  legs: v.array(v.object({ from_seq: integerField, to_seq: integerField, distance_km: v.number(), duration_s: integerField })),
  totals: v.object({ distance_km: v.number(), duration_s: integerField }),
});

export function toRouteRecord(route: Route): v.InferOutput<typeof RouteRecord> {
  return {
    route_uid: route.routeUid,
    route_name: route.name,
    vehicle_uid: route.vehicleUid,
    directions_source: route.directionsSource,
    stops: route.stops.map((stop) => ({
      seq: stop.seq,
      user_location_uid: stop.userLocationUid,
      description: stop.description,
      latitude: stop.latitude,
      longitude: stop.longitude,
      created: stop.created,
    })),
    legs: route.legs.map((leg) => ({ from_seq: leg.fromSeq, to_seq: leg.toSeq, distance_km: leg.distanceKm, duration_s: leg.durationS })),
    totals: routeTotals(route),
  };
}

export const RouteSummary = v.object({
  route_uid: integerField,
  route_name: v.string(),
  vehicle_uid: v.nullable(integerField),
  stop_cnt: integerField,
  distance_km: v.number(),
  duration_s: integerField,
  created_datetime: dateTimeField,
});

/** One line of getRoutes, created_datetime in the user's offset. */
export function toRouteSummary(route: Route, offsetMinutes: number): v.InferOutput<typeof RouteSummary> {
  const totals = routeTotals(route);
  return {
    route_uid: route.routeUid,
    route_name: route.name,
    vehicle_uid: route.vehicleUid,
    stop_cnt: route.stops.length,
    distance_km: totals.distance_km,
    duration_s: totals.duration_s,
    created_datetime: formatDateTime(route.createdAt, offsetMinutes),
  };
}
