/**
 * User locations: saved points (a centre and a radius in km) and polygons (geofences), with the
 * geometry the positions pipeline, the live map and routes use to name where a vehicle is.
 */
import * as v from 'valibot';
import { BadRequest } from '../errors.ts';
import { flagField, integerField, optionalFlag, optionalNumber, optionalText } from '../contracts/primitives.ts';
import { COORDINATE_DECIMALS, distanceKm, EARTH_RADIUS_KM, type LatLng, roundTo } from './geo.ts';
import { parseJson } from './json.ts';

export const LOCATION_TYPES = ['point', 'polygon'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

export interface LocationDetails {
  description: string;
  latitude: number;
  longitude: number;
  icon: string;
  color: string;
  /** geofence radius of a point, km */
  radiusKm: number;
  locationType: LocationType;
  /** a polygon's vertices; empty for a point */
  points: LatLng[];
  /** speed limit in the zone, km/h; 0 = none */
  speedLimit: number;
  noGo: boolean;
  onlyPush: boolean;
}

export interface UserLocation extends LocationDetails {
  userLocationUid: number;
}

const DEFAULT_COLOR = 'blue';
/** anything wider than half the Earth's circumference covers everything; a bigger number is a unit mistake */
const MAX_RADIUS_KM = 20_000;
const MAX_SPEED_LIMIT = 1_000;
/** what is kept of a radius (1 mm, so a radius that rounds to 0 is refused) and of a speed limit */
const RADIUS_DECIMALS = 6;
const SPEED_DECIMALS = 2;
/** keeps an item far below DynamoDB's 400 KB and a containment test cheap for every position */
const MAX_POLYGON_VERTICES = 1_000;

const RADIUS_MESSAGE = `radius must be a number greater than 0 and at most ${MAX_RADIUS_KM} (km)`;
const SPEED_MESSAGE = `speed must be a number from 0 to ${MAX_SPEED_LIMIT} (km/h)`;
const LOCATION_TYPE_MESSAGE = "location_type must be 'point' or 'polygon'";
export const POINTS_REQUIRED = 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon';

/** The optional parameters addUserLocation and editUserLocation share, in the spec's order. */
export const userLocationOptions = {
  color: optionalText('color', 50),
  radius: v.optional(v.pipe(v.unwrap(optionalNumber('radius', RADIUS_DECIMALS, MAX_RADIUS_KM, RADIUS_MESSAGE)), v.gtValue(0, RADIUS_MESSAGE))),
  location_type: v.optional(v.pipe(v.string(LOCATION_TYPE_MESSAGE), v.trim(), v.toLowerCase(), v.picklist(LOCATION_TYPES, LOCATION_TYPE_MESSAGE))),
  // Checked by polygonVertices once the location type is known: a point ignores them.
  points: v.pipe(v.unknown(), v.description("a polygon's vertices: a JSON array (or its JSON text) of at least 3 {lat,lng} objects; ignored for a point")),
  icon: optionalText('icon', 255),
  speed: v.optional(v.pipe(v.unwrap(optionalNumber('speed', SPEED_DECIMALS, MAX_SPEED_LIMIT, SPEED_MESSAGE)), v.minValue(0, SPEED_MESSAGE))),
  no_go: optionalFlag('no_go'),
  only_push: optionalFlag('only_push'),
};

/** Validated parameters of addUserLocation / editUserLocation; absent ones are undefined. */
export interface LocationParams {
  description?: string;
  latitude?: number;
  longitude?: number;
  color?: string;
  radius?: number;
  location_type?: LocationType;
  points?: unknown;
  icon?: string;
  speed?: number;
  no_go?: number;
  only_push?: number;
}

export function newLocation(params: LocationParams & Pick<LocationDetails, 'description' | 'latitude' | 'longitude'>): LocationDetails {
  const blank: LocationDetails = {
    description: params.description,
    latitude: params.latitude,
    longitude: params.longitude,
    icon: '',
    color: DEFAULT_COLOR,
    radiusKm: 1,
    locationType: 'point',
    points: [],
    speedLimit: 0,
    noGo: false,
    onlyPush: false,
  };
  return applyChanges(blank, locationChanges(blank, params));
}

/**
 * What an edit changes (undefined: keep). The type and the points always change together so
 * concurrent edits cannot leave a point with vertices or a polygon without them.
 */
export function locationChanges(current: LocationDetails, params: LocationParams): Partial<LocationDetails> {
  return {
    description: params.description,
    latitude: params.latitude,
    longitude: params.longitude,
    icon: params.icon,
    // a blank colour means the default, never a colourless location
    color: params.color === undefined ? undefined : params.color || DEFAULT_COLOR,
    radiusKm: params.radius,
    speedLimit: params.speed,
    noGo: params.no_go === undefined ? undefined : params.no_go === 1,
    onlyPush: params.only_push === undefined ? undefined : params.only_push === 1,
    ...shapeChanges(current, params),
  };
}

function shapeChanges(current: LocationDetails, params: LocationParams): Partial<LocationDetails> {
  const locationType = params.location_type ?? current.locationType;
  if (locationType === 'point') return params.location_type ? { locationType, points: [] } : {};
  if (params.points === undefined && current.locationType === 'polygon') return {};
  return { locationType, points: polygonVertices(params.points) };
}

function applyChanges<T extends LocationDetails>(current: T, changes: Partial<LocationDetails>): T {
  const present = Object.entries(changes).filter(([, value]) => value !== undefined);
  return { ...current, ...Object.fromEntries(present) };
}

/** A polygon's vertices from JSON text (form bodies) or an array (JSON bodies). */
export function polygonVertices(points: unknown): LatLng[] {
  const list = typeof points === 'string' ? parseJson(points) : points;
  if (!Array.isArray(list) || list.length < 3) throw new BadRequest(POINTS_REQUIRED);
  if (list.length > MAX_POLYGON_VERTICES) throw new BadRequest(`points may have at most ${MAX_POLYGON_VERTICES} vertices`);
  return list.map((vertex: unknown, index) => {
    const { lat, lng } = (typeof vertex === 'object' && vertex !== null ? vertex : {}) as Record<string, unknown>;
    if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      throw new BadRequest(`points vertex ${index + 1} must be an object with numeric lat and lng`);
    }
    const stored = { lat: roundTo(lat, COORDINATE_DECIMALS), lng: roundTo(lng, COORDINATE_DECIMALS) };
    if (Math.abs(stored.lat) > 90 || Math.abs(stored.lng) > 180) throw new BadRequest(`points vertex ${index + 1} is out of range`);
    return stored;
  });
}

/** The stored and returned form of the vertices: normalized JSON text, '' for a point. */
export const pointsText = (points: readonly LatLng[]): string =>
  points.length === 0 ? '' : JSON.stringify(points.map(({ lat, lng }) => ({ lat, lng })));

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

type Zone = Pick<LocationDetails, 'latitude' | 'longitude' | 'radiusKm' | 'locationType' | 'points'>;

/** Whether the position lies in the zone: within the radius of a point (edge included), inside a polygon. */
export function locationContains(location: Zone, position: LatLng): boolean {
  if (location.locationType === 'polygon') return insidePolygon(location.points, position);
  return distanceKm({ lat: location.latitude, lng: location.longitude }, position) <= location.radiusKm;
}

/**
 * The most specific location that contains the position: the smallest zone (a point's circle or a
 * polygon's area), then the nearest centre (a polygon's latitude/longitude), then the order given.
 * A depot inside a wide region is named by the depot, whichever was saved first.
 */
export function mostSpecificLocationAt<L extends Zone>(locations: readonly L[], position: LatLng): L | undefined {
  let best: { location: L; areaKm2: number; centreKm: number } | undefined;
  for (const location of locations) {
    if (!locationContains(location, position)) continue;
    const candidate = { location, areaKm2: zoneAreaKm2(location), centreKm: distanceKm({ lat: location.latitude, lng: location.longitude }, position) };
    if (!best || candidate.areaKm2 < best.areaKm2 || (candidate.areaKm2 === best.areaKm2 && candidate.centreKm < best.centreKm)) best = candidate;
  }
  return best?.location;
}

/** A point's disc, or a polygon's area on a local equirectangular projection (exact enough to rank zones of one user). */
export function zoneAreaKm2(location: Zone): number {
  if (location.locationType === 'point') return Math.PI * location.radiusKm ** 2;
  const vertices = location.points;
  const kmPerDegree = (Math.PI / 180) * EARTH_RADIUS_KM;
  const meanLat = vertices.reduce((sum, vertex) => sum + vertex.lat, 0) / vertices.length;
  const lngScale = Math.cos((meanLat * Math.PI) / 180);
  let twiceArea = 0;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = vertices[j] as LatLng;
    const b = vertices[i] as LatLng;
    twiceArea += a.lng * lngScale * b.lat - b.lng * lngScale * a.lat;
  }
  return (Math.abs(twiceArea) / 2) * kmPerDegree ** 2;
}

/**
 * Ray casting on plain lat/lng: exact enough for geofences of city scale; a polygon that
 * crosses the antimeridian is not supported.
 */
function insidePolygon(vertices: readonly LatLng[], { lat, lng }: LatLng): boolean {
  let inside = false;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = vertices[i] as LatLng;
    const b = vertices[j] as LatLng;
    if (a.lat > lat !== b.lat > lat && lng < ((b.lng - a.lng) * (lat - a.lat)) / (b.lat - a.lat) + a.lng) inside = !inside;
  }
  return inside;
}
