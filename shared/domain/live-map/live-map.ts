/**
 * What a live map shows: the user's vehicles at their last positions, framed on the centre of their
 * bounding box, and (on the maps this service draws) the user's geofences. Every provider draws from
 * this, and its fingerprint names the cached picture.
 */
import { createHash } from 'node:crypto';
import { BadRequest, NotFound } from '../../errors.ts';
import type { LatLng } from '../geo.ts';
import type { LocationDetails } from '../user-location.ts';
import type { LinkedVehicle } from '../vehicle.ts';
import { toWorldPixel } from './projection.ts';

export const MAP_DEFAULTS = { width: 600, height: 600, zoom: 13 } as const;
/** Google Static Maps' own limits (640 × 640 without a premium plan); every other provider keeps the same contract. */
export const MAP_LIMITS = { size: { min: 1, max: 640 }, zoom: { min: 1, max: 20 } } as const;
/** keeps a Google request under its 16 384-character URL limit (one markers parameter per vehicle) */
export const MAX_MAP_VEHICLES = 250;
/** Google Static Maps labels are one character from A–Z and 0–9: the first 36 vehicles get one. */
const MARKER_LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Changing how pictures are drawn must not serve pictures drawn the old way: bump this. */
const RENDERING_VERSION = 2;

export const NO_POSITION = 'no vehicle with a known position to show';

export interface MapSize {
  width: number;
  height: number;
  zoom: number;
}

export interface MapVehicle {
  vehicleUid: number;
  name: string;
  position: LatLng;
  gpsDatetime: string;
  /** degrees clockwise from north; null when the device did not report one */
  heading: number | null;
  /** the provider's one-character marker label, for the first 36 vehicles */
  label: string | undefined;
}

export type Geofence = Pick<LocationDetails, 'description' | 'locationType' | 'latitude' | 'longitude' | 'radiusKm' | 'points' | 'color'>;

export interface LiveMap extends MapSize {
  centre: LatLng;
  /** by vehicle_uid, only those with a known position */
  vehicles: MapVehicle[];
  geofences: Geofence[];
}

/** The map of the vehicles that have a position; NotFound when none has one. */
export function composeLiveMap(size: MapSize, linked: readonly LinkedVehicle[], geofences: readonly Geofence[] = []): LiveMap {
  const placed = linked
    .flatMap(({ vehicle, live }) => (live ? [{ vehicle, live }] : []))
    .sort((a, b) => a.vehicle.vehicleUid - b.vehicle.vehicleUid);
  if (placed.length === 0) throw new NotFound(NO_POSITION);
  if (placed.length > MAX_MAP_VEHICLES) {
    throw new BadRequest(`too many vehicles for one map (${placed.length}, at most ${MAX_MAP_VEHICLES}); narrow the filter`);
  }
  const vehicles = placed.map(({ vehicle, live }, index) => ({
    vehicleUid: vehicle.vehicleUid,
    name: vehicle.name,
    position: { lat: live.latitude, lng: live.longitude },
    gpsDatetime: live.gpsDatetime,
    heading: live.heading,
    label: MARKER_LABELS[index],
  }));
  return {
    width: size.width,
    height: size.height,
    zoom: size.zoom,
    centre: frameCentre(
      size,
      vehicles.map((vehicle) => vehicle.position),
    ),
    vehicles,
    geofences: geofences.map(({ description, locationType, latitude, longitude, radiusKm, points, color }) => ({
      description,
      locationType,
      latitude,
      longitude,
      radiusKm,
      points,
      color,
    })),
  };
}

/** Pixels kept between a framed vehicle and the picture's edge, so its marker shows whole. */
const FRAME_MARGIN_PX = 24;

/**
 * The middle of the vehicles' bounding box when they all fit in the picture at its zoom. When they do
 * not, the middle of the most vehicles that fit together: the frame-sized window around each vehicle is
 * tried in vehicle_uid order and the first holding the most wins, so the picture shows vehicles rather
 * than the empty middle between two distant ones.
 */
export function frameCentre(size: MapSize, positions: readonly LatLng[]): LatLng {
  const pixels = positions.map((position) => ({ position, at: toWorldPixel(position, size.zoom) }));
  const halfWidth = Math.max(size.width / 2 - FRAME_MARGIN_PX, 0);
  const halfHeight = Math.max(size.height / 2 - FRAME_MARGIN_PX, 0);
  let best: LatLng[] = [];
  for (const { at } of pixels) {
    const inWindow = pixels.filter((other) => Math.abs(other.at.x - at.x) <= halfWidth && Math.abs(other.at.y - at.y) <= halfHeight);
    if (inWindow.length > best.length) best = inWindow.map((other) => other.position);
  }
  const all = boundingBoxCentre(positions);
  const xs = pixels.map(({ at }) => at.x);
  const ys = pixels.map(({ at }) => at.y);
  const fits = Math.max(...xs) - Math.min(...xs) <= 2 * halfWidth && Math.max(...ys) - Math.min(...ys) <= 2 * halfHeight;
  return fits || best.length === 0 ? all : boundingBoxCentre(best);
}

export function boundingBoxCentre(positions: readonly LatLng[]): LatLng {
  const lats = positions.map((position) => position.lat);
  const lngs = positions.map((position) => position.lng);
  return { lat: (Math.min(...lats) + Math.max(...lats)) / 2, lng: (Math.min(...lngs) + Math.max(...lngs)) / 2 };
}

/**
 * SHA-256 of everything that decides the picture: provider, size, zoom, centre, each vehicle's id,
 * name, label, position, heading and GPS time, and the geofences. The provider's key is not an input, by design:
 * neither the key nor anything derived from it may reach a cache key.
 */
export function mapFingerprint(provider: string, map: LiveMap): string {
  const content = { version: RENDERING_VERSION, provider, ...map };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
