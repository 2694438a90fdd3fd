/**
 * User locations: saved points (a centre and a radius in km) and polygons (geofences), with the
 * geometry the positions pipeline, the live map and routes use to name where a vehicle is.
 */
import { BadRequest } from '../errors.ts';
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
export const MAX_RADIUS_KM = 20_000;
export const MAX_SPEED_LIMIT = 1_000;
/** what is kept of a radius (1 mm, so a radius that rounds to 0 is refused) and of a speed limit */
export const RADIUS_DECIMALS = 6;
export const SPEED_DECIMALS = 2;
/** keeps an item far below DynamoDB's 400 KB and a containment test cheap for every position */
export const MAX_POLYGON_VERTICES = 1_000;
export const MIN_POLYGON_VERTICES = 3;

export const POINTS_REQUIRED = `points must be a JSON array of at least ${MIN_POLYGON_VERTICES} {lat,lng} vertices for a polygon`;

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
  if (!Array.isArray(list) || list.length < MIN_POLYGON_VERTICES) throw new BadRequest(POINTS_REQUIRED);
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
    const candidate = {
      location,
      areaKm2: zoneAreaKm2(location),
      centreKm: distanceKm({ lat: location.latitude, lng: location.longitude }, position),
    };
    if (!best || candidate.areaKm2 < best.areaKm2 || (candidate.areaKm2 === best.areaKm2 && candidate.centreKm < best.centreKm))
      best = candidate;
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
