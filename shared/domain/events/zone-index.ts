/**
 * A user's zones (user locations) as the zone events see them: containment as place names use it
 * (shared/domain/user-location.ts: within a point's radius, inside a polygon), the exit margin that keeps jitter
 * along an edge from firing, and where a straight segment between two fixes crosses a zone. Candidate zones come
 * from an R-tree of their bounding boxes (Flatbush), so a point is tested against the few zones near it, never
 * against every zone of the user; the index is built once each time the user's zones are read.
 */
import Flatbush from 'flatbush';
import { distanceKm, EARTH_RADIUS_KM, type LatLng } from '../geo.ts';
import { locationContains, type UserLocation } from '../user-location.ts';

const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
/** a polygon's exit margin, and the least margin of a point zone */
const MIN_MARGIN_KM = 0.02;
const POINT_MARGIN_SHARE = 0.1;

/** How far beyond a zone's edge a vehicle inside must be to have left it: max(10 % of the radius, 20 m), 20 m for a polygon. */
export const exitMarginKm = (zone: UserLocation): number =>
  zone.locationType === 'point' ? Math.max(POINT_MARGIN_SHARE * zone.radiusKm, MIN_MARGIN_KM) : MIN_MARGIN_KM;

export const zoneContains = (zone: UserLocation, point: LatLng): boolean => locationContains(zone, point);

/** Outside the zone and farther than its margin from the edge. */
export function beyondMargin(zone: UserLocation, point: LatLng): boolean {
  if (zone.locationType === 'point')
    return distanceKm({ lat: zone.latitude, lng: zone.longitude }, point) > zone.radiusKm + exitMarginKm(zone);
  return !locationContains(zone, point) && distanceToEdgesKm(zone.points, point) > exitMarginKm(zone);
}

interface Xy {
  x: number;
  y: number;
}

/** Kilometres east and north of an origin: a local equirectangular projection, exact enough at a zone's scale. */
const projector = (origin: LatLng) => {
  const lngScale = Math.cos((origin.lat * Math.PI) / 180) * KM_PER_DEGREE;
  return (point: LatLng): Xy => ({ x: (point.lng - origin.lng) * lngScale, y: (point.lat - origin.lat) * KM_PER_DEGREE });
};

function distanceToEdgesKm(vertices: readonly LatLng[], point: LatLng): number {
  const project = projector(point);
  let nearest = Number.POSITIVE_INFINITY;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = project(vertices[j] as LatLng);
    const b = project(vertices[i] as LatLng);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const lengthSquared = dx * dx + dy * dy;
    const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, -(a.x * dx + a.y * dy) / lengthSquared));
    nearest = Math.min(nearest, Math.hypot(a.x + t * dx, a.y + t * dy));
  }
  return nearest;
}

/**
 * Where the straight segment from `from` to `to` (both outside the zone) enters and leaves it, as fractions of the
 * segment, or undefined when it misses it. A concave polygon crossed more than once counts as one visit.
 */
export function segmentCrossing(zone: UserLocation, from: LatLng, to: LatLng): { enter: number; exit: number } | undefined {
  if (zone.locationType === 'point') {
    const project = projector({ lat: zone.latitude, lng: zone.longitude });
    const a = project(from);
    const b = project(to);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const qa = dx * dx + dy * dy;
    const qb = 2 * (a.x * dx + a.y * dy);
    const qc = a.x * a.x + a.y * a.y - zone.radiusKm ** 2;
    const discriminant = qb * qb - 4 * qa * qc;
    if (qa === 0 || discriminant <= 0) return undefined;
    const enter = (-qb - Math.sqrt(discriminant)) / (2 * qa);
    const exit = (-qb + Math.sqrt(discriminant)) / (2 * qa);
    return enter > 0 && exit < 1 ? { enter, exit } : undefined;
  }
  const project = projector(from);
  const b = project(to);
  const crossings: number[] = [];
  for (let i = 0, j = zone.points.length - 1; i < zone.points.length; j = i++) {
    const p = project(zone.points[j] as LatLng);
    const q = project(zone.points[i] as LatLng);
    const ex = q.x - p.x;
    const ey = q.y - p.y;
    const denominator = b.x * ey - b.y * ex;
    if (denominator === 0) continue;
    const t = (p.x * ey - p.y * ex) / denominator;
    const u = (p.x * b.y - p.y * b.x) / denominator;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) crossings.push(t);
  }
  return crossings.length >= 2 ? { enter: Math.min(...crossings), exit: Math.max(...crossings) } : undefined;
}

/** A zone's bounding box widened by its exit margin, in degrees: what the R-tree holds. */
function boundsOf(zone: UserLocation): [number, number, number, number] {
  const marginKm = exitMarginKm(zone);
  if (zone.locationType === 'polygon') {
    const lats = zone.points.map((vertex) => vertex.lat);
    const lngs = zone.points.map((vertex) => vertex.lng);
    const minLat = Math.min(...lats);
    const maxLat = Math.max(...lats);
    const lngPad = marginKm / (KM_PER_DEGREE * Math.max(0.01, Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180)));
    return [Math.min(...lngs) - lngPad, minLat - marginKm / KM_PER_DEGREE, Math.max(...lngs) + lngPad, maxLat + marginKm / KM_PER_DEGREE];
  }
  const reachKm = zone.radiusKm + marginKm;
  const latPad = reachKm / KM_PER_DEGREE;
  const farthestLat = Math.min(90, Math.abs(zone.latitude) + latPad);
  const cos = Math.cos((farthestLat * Math.PI) / 180);
  // near a pole, or wider than the world, a zone's longitudes span everything
  const lngPad = cos < 0.01 || latPad >= 90 ? 360 : reachKm / (KM_PER_DEGREE * cos);
  return [zone.longitude - lngPad, zone.latitude - latPad, zone.longitude + lngPad, zone.latitude + latPad];
}

/** A user's zones, indexed by where they lie (kept across batches while the user's locations stand: shared/pipeline/zone-cache.ts). */
export class ZoneIndex {
  readonly zones: readonly UserLocation[];
  private readonly byUid: Map<number, UserLocation>;
  private readonly tree: Flatbush | undefined;

  constructor(zones: readonly UserLocation[]) {
    this.zones = zones;
    this.byUid = new Map(zones.map((zone) => [zone.userLocationUid, zone]));
    if (zones.length === 0) return;
    this.tree = new Flatbush(zones.length);
    for (const zone of zones) this.tree.add(...boundsOf(zone));
    this.tree.finish();
  }

  zone(userLocationUid: number): UserLocation | undefined {
    return this.byUid.get(userLocationUid);
  }

  /** The zones whose margin-widened box holds the point or meets the segment's box: the only ones worth testing. */
  near(from: LatLng, to: LatLng = from): UserLocation[] {
    if (!this.tree) return [];
    const found = this.tree.search(
      Math.min(from.lng, to.lng),
      Math.min(from.lat, to.lat),
      Math.max(from.lng, to.lng),
      Math.max(from.lat, to.lat),
    );
    return found.sort((a, b) => a - b).map((index) => this.zones[index] as UserLocation);
  }
}
