/**
 * Routes: an ordered list of stops, each one of the user's saved locations, with the driving
 * distance and time of every leg as a directions provider reported them when the route was made.
 * A route keeps a snapshot of its stops, so editing or deleting a location later leaves it as it was.
 */
import { NotFound } from '../../errors.ts';
import { distanceKm, type LatLng } from '../geo.ts';
import { type LocationDetails, mostSpecificLocationAt, newLocation, type UserLocation } from '../user-location.ts';

export const MIN_STOPS = 2;
/** Google Directions takes at most 25 waypoints between origin and destination; 25 stops stay inside every provider's limit */
export const MAX_STOPS = 25;
/** a raw point this close to a saved location is that location */
export const REUSE_RADIUS_KM = 0.05;

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
  plan.unnamed
    .map((draft) => plan.drafts[draft] as LocationDetails)
    .map((location) => ({ lat: location.latitude, lng: location.longitude }));

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
  const containing = mostSpecificLocationAt(
    inReach.map(({ location }) => location),
    point,
  );
  if (containing) return containing;
  return inReach.reduce<{ location: L; km: number } | undefined>((best, next) => (!best || next.km < best.km ? next : best), undefined)
    ?.location;
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
export function routeTotals(route: NewRoute) {
  return {
    distance_km: km(route.legs.reduce((sum, leg) => sum + leg.distanceKm, 0)),
    duration_s: route.legs.reduce((sum, leg) => sum + leg.durationS, 0),
  };
}
