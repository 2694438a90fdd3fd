/**
 * Routes: an ordered list of stops, each one of the user's saved locations, with the driving
 * distance and time of every leg as a directions provider reported them when the route was made.
 * A route keeps a snapshot of its stops, so editing or deleting a location later leaves it as it was.
 */
import * as v from 'valibot';
import { NotFound } from '../errors.ts';
import { dateTimeText, integer } from '../responses.ts';
import { COORDINATE_DECIMALS, roundTo } from '../validation.ts';
import { distanceKm, type LatLng } from './geo.ts';
import { PLACE_NAMING } from './place.ts';
import { formatDateTime } from './time.ts';
import { type LocationDetails, mostSpecificLocationAt, newLocation, type UserLocation } from './user-location.ts';

export const MIN_STOPS = 2;
/** Google Directions takes at most 25 waypoints between origin and destination; 25 stops stay inside every provider's limit */
export const MAX_STOPS = 25;
/** a raw point this close to a saved location is that location */
export const REUSE_RADIUS_KM = 0.05;
const MAX_DESCRIPTION = 255;

export const STOPS_REQUIRED = `stops is required and must be a JSON array of at least ${MIN_STOPS} stops`;

/** A stop as the request names it: a saved location, or a point to match or save. */
export type StopRequest = { userLocationUid: number } | { lat: number; lng: number; description?: string };

export interface RouteStop {
  seq: number;
  userLocationUid: number;
  description: string;
  latitude: number;
  longitude: number;
  /** whether the call that made the route created the location */
  created: boolean;
}

export interface RouteLeg {
  fromSeq: number;
  toSeq: number;
  distanceKm: number;
  durationS: number;
}

export interface NewRoute {
  name: string;
  vehicleUid: number | null;
  directionsSource: string;
  stops: RouteStop[];
  legs: RouteLeg[];
}

export interface Route extends NewRoute {
  routeUid: number;
  /** UTC ISO */
  createdAt: string;
}

/** A leg as a directions provider measures it, unrounded. */
export interface LegMeasure {
  distanceKm: number;
  durationS: number;
}

/** `stops`: a JSON array, or its text in a form field; each item checked in order, the first failure answers. */
export const stopList = v.pipe(
  v.unknown(),
  v.description(
    `the stops in order: a JSON array (or its JSON text) of ${MIN_STOPS} to ${MAX_STOPS} objects, each {"user_location_uid": id} ` +
      `of a saved location or {"lat": .., "lng": .., "description": optional} of a point (a saved location within ${REUSE_RADIUS_KM * 1000} m is reused)`,
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const stops = readStops(dataset.value);
    if (typeof stops === 'string') {
      addIssue({ message: stops });
      return NEVER;
    }
    return stops;
  }),
);

/** The stops, or the message for the first thing wrong with them. */
function readStops(value: unknown): StopRequest[] | string {
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
  if (uid !== undefined && (lat !== undefined || lng !== undefined)) return `${name} must have either user_location_uid or lat and lng, not both`;
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
  if ([...text].length > MAX_DESCRIPTION) return `${name} description is too long (max ${MAX_DESCRIPTION} chars)`;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each stop resolved to a saved location, or to one of the drafts this call will save. */
export type PlannedStop = { saved: UserLocation } | { draft: number };

export interface StopPlan {
  stops: PlannedStop[];
  drafts: LocationDetails[];
  /** the drafts whose stop came without a description: named as trips' places are (nameDrafts) */
  unnamed: number[];
}

/**
 * Resolves the requested stops against the user's locations. A point reuses a location
 * within 50 m (its reference point, for a polygon), including one drafted for an earlier stop of
 * the same route, so a round trip does not save its depot twice.
 */
export function planStops(requests: readonly StopRequest[], saved: readonly UserLocation[]): StopPlan {
  const drafts: LocationDetails[] = [];
  const unnamed: number[] = [];
  const stops = requests.map((request): PlannedStop => {
    if ('userLocationUid' in request) {
      const location = saved.find((candidate) => candidate.userLocationUid === request.userLocationUid);
      if (!location) throw NotFound.notLinked('location');
      return { saved: location };
    }
    const point = { lat: request.lat, lng: request.lng };
    const nearSaved = locationToReuse(saved, point);
    if (nearSaved) return { saved: nearSaved };
    const nearDraft = locationToReuse(drafts, point);
    if (nearDraft) return { draft: drafts.indexOf(nearDraft) };
    const description = request.description ?? `Route stop ${request.lat},${request.lng}`;
    const draft = drafts.push(newLocation({ description, latitude: request.lat, longitude: request.lng })) - 1;
    if (request.description === undefined) unnamed.push(draft);
    return { draft };
  });
  return { stops, drafts, unnamed };
}

/** Where the unnamed drafts are, in `plan.unnamed` order: the places nameDrafts needs names for. */
export const unnamedPoints = (plan: StopPlan): LatLng[] =>
  plan.unnamed.map((draft) => plan.drafts[draft] as LocationDetails).map((location) => ({ lat: location.latitude, lng: location.longitude }));

/** The plan with its unnamed drafts described by `names` (one per `plan.unnamed`, in order). */
export function nameDrafts(plan: StopPlan, names: readonly string[]): StopPlan {
  const drafts = [...plan.drafts];
  plan.unnamed.forEach((draft, index) => {
    drafts[draft] = { ...(drafts[draft] as LocationDetails), description: names[index] as string };
  });
  return { ...plan, drafts };
}

/**
 * The location to reuse among those whose centre is within the reuse radius: the most specific one
 * that contains the point (as trips and fills are named), else the closest; the first one wins a tie.
 */
function locationToReuse<L extends LocationDetails>(locations: readonly L[], point: LatLng): L | undefined {
  const inReach = locations
    .map((location) => ({ location, km: distanceKm({ lat: location.latitude, lng: location.longitude }, point) }))
    .filter(({ km }) => km <= REUSE_RADIUS_KM);
  const containing = mostSpecificLocationAt(inReach.map(({ location }) => location), point);
  if (containing) return containing;
  return inReach.reduce<{ location: L; km: number } | undefined>((best, next) => (!best || next.km < best.km ? next : best), undefined)?.location;
}

/** Where each planned stop is, in order: what the directions are asked for. */
export function planPoints(plan: StopPlan): LatLng[] {
  return plan.stops.map((stop) => {
    const location = 'saved' in stop ? stop.saved : (plan.drafts[stop.draft] as LocationDetails);
    return { lat: location.latitude, lng: location.longitude };
  });
}

/** The route's stops once the drafts are saved (`created` in the drafts' order). */
export function routeStops(plan: StopPlan, created: readonly UserLocation[]): RouteStop[] {
  return plan.stops.map((stop, index) => {
    const location = 'saved' in stop ? stop.saved : (created[stop.draft] as UserLocation);
    return {
      seq: index + 1,
      userLocationUid: location.userLocationUid,
      description: location.description,
      latitude: location.latitude,
      longitude: location.longitude,
      created: 'draft' in stop,
    };
  });
}

const km = (value: number): number => Math.round(value * 1000) / 1000;

/** Legs between consecutive stops, rounded as returned: km to the metre, whole seconds. */
export function routeLegs(measures: readonly LegMeasure[]): RouteLeg[] {
  return measures.map((measure, index) => ({
    fromSeq: index + 1,
    toSeq: index + 2,
    distanceKm: km(measure.distanceKm),
    durationS: Math.round(measure.durationS),
  }));
}

/** Totals are the sums of the legs as returned, so they always add up. */
function routeTotals(route: NewRoute) {
  return {
    distance_km: km(route.legs.reduce((sum, leg) => sum + leg.distanceKm, 0)),
    duration_s: route.legs.reduce((sum, leg) => sum + leg.durationS, 0),
  };
}

/** The route as addRoute answers it and getRoute returns it. */
export const RouteRecord = v.object({
  route_uid: integer,
  route_name: v.string(),
  vehicle_uid: v.nullable(integer),
  directions_source: v.string(),
  stops: v.array(
    v.object({
      seq: integer,
      user_location_uid: integer,
      description: v.pipe(
        v.string(),
        v.description(`the stop's location's description; a new stop sent without one is named as trips' places are: ${PLACE_NAMING}`),
      ),
      latitude: v.number(),
      longitude: v.number(),
      created: v.boolean(),
    }),
  ),
  legs: v.array(v.object({ from_seq: integer, to_seq: integer, distance_km: v.number(), duration_s: integer })),
  totals: v.object({ distance_km: v.number(), duration_s: integer }),
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
  route_uid: integer,
  route_name: v.string(),
  vehicle_uid: v.nullable(integer),
  stop_cnt: integer,
  distance_km: v.number(),
  duration_s: integer,
  created_datetime: dateTimeText,
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
