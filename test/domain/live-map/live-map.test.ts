import { describe, expect, it } from 'vitest';
import {
  boundingBoxCentre,
  composeLiveMap,
  type Geofence,
  MAX_MAP_VEHICLES,
  mapFingerprint,
  NO_POSITION,
} from '../../../shared/domain/live-map/live-map.ts';
import type { LinkedVehicle } from '../../../shared/domain/vehicle.ts';
import { BadRequest, NotFound } from '../../../shared/errors.ts';
import { aLiveState, aVehicle } from '../../support/builders.ts';

const size = { width: 600, height: 600, zoom: 13 };

const linked = (vehicleUid: number, position?: { lat: number; lng: number }, name = `Truck ${vehicleUid}`): LinkedVehicle => ({
  vehicle: { ...aVehicle({ name }), vehicleUid },
  live: position ? aLiveState({ latitude: position.lat, longitude: position.lng }) : undefined,
});

const depot: Geofence = {
  description: 'Depot',
  locationType: 'point',
  latitude: -26.2,
  longitude: 28.05,
  radiusKm: 1,
  points: [],
  color: 'blue',
};

describe('composeLiveMap', () => {
  it('shows the vehicles with a position, by vehicle_uid, labelled A, B, ...', () => {
    const map = composeLiveMap(size, [linked(9, { lat: 1, lng: 2 }), linked(3), linked(4, { lat: -1, lng: 4 })]);
    expect(map.vehicles.map((vehicle) => [vehicle.vehicleUid, vehicle.label, vehicle.position])).toEqual([
      [4, 'A', { lat: -1, lng: 4 }],
      [9, 'B', { lat: 1, lng: 2 }],
    ]);
  });

  it('labels the first 36 vehicles A–Z then 0–9 and leaves the rest unlabelled', () => {
    const vehicles = Array.from({ length: 40 }, (_, index) => linked(index + 1, { lat: 0, lng: index / 100 }));
    const labels = composeLiveMap(size, vehicles).vehicles.map((vehicle) => vehicle.label);
    expect(labels.slice(0, 36).join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    expect(labels.slice(36)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("centres the map on the middle of the vehicles' bounding box when they all fit in the picture", () => {
    const map = composeLiveMap({ ...size, zoom: 6 }, [
      linked(1, { lat: -26, lng: 28 }),
      linked(2, { lat: -25, lng: 28.5 }),
      linked(3, { lat: -25.8, lng: 30 }),
    ]);
    expect(map.centre).toEqual({ lat: -25.5, lng: 29 });
    expect(boundingBoxCentre([{ lat: 5, lng: 6 }])).toEqual({ lat: 5, lng: 6 });
  });

  it('centres the map on the most vehicles that fit together when not all of them fit', () => {
    // At zoom 13 a 600-pixel picture spans about 10 km: the two trucks at the depot fit, the van 20 km away does not.
    const depotTrucks = [linked(1, { lat: -25.9992, lng: 28.1263 }), linked(3, { lat: -25.9996, lng: 28.1271 })];
    const map = composeLiveMap(size, [...depotTrucks, linked(2, { lat: -26.1015, lng: 28.2308 })]);
    expect(map.centre).toEqual(
      boundingBoxCentre([
        { lat: -25.9992, lng: 28.1263 },
        { lat: -25.9996, lng: 28.1271 },
      ]),
    );
  });

  it('answers 404 when no vehicle has a position', () => {
    expect(() => composeLiveMap(size, [linked(1)])).toThrow(new NotFound(NO_POSITION));
    expect(() => composeLiveMap(size, [])).toThrow(NotFound);
  });

  it(`refuses more than ${MAX_MAP_VEHICLES} vehicles on one map`, () => {
    const vehicles = Array.from({ length: MAX_MAP_VEHICLES + 1 }, (_, index) => linked(index + 1, { lat: 0, lng: 0 }));
    expect(() => composeLiveMap(size, vehicles)).toThrow(
      new BadRequest(`too many vehicles for one map (${MAX_MAP_VEHICLES + 1}, at most ${MAX_MAP_VEHICLES}); narrow the filter`),
    );
    expect(composeLiveMap(size, vehicles.slice(1)).vehicles).toHaveLength(MAX_MAP_VEHICLES);
  });
});

describe('mapFingerprint', () => {
  const map = composeLiveMap(size, [linked(1, { lat: -26.2041, lng: 28.0473 })], [depot]);

  it('is a SHA-256 that stays the same for the same picture', () => {
    expect(mapFingerprint('google', map)).toMatch(/^[0-9a-f]{64}$/);
    expect(mapFingerprint('google', structuredClone(map))).toBe(mapFingerprint('google', map));
  });

  it.each([
    ['the provider', mapFingerprint('offline', map)],
    ['the width', mapFingerprint('google', { ...map, width: 601 })],
    ['the zoom', mapFingerprint('google', { ...map, zoom: 12 })],
    ['a position', mapFingerprint('google', composeLiveMap(size, [linked(1, { lat: -26.2042, lng: 28.0473 })], [depot]))],
    ['a vehicle name', mapFingerprint('google', composeLiveMap(size, [linked(1, { lat: -26.2041, lng: 28.0473 }, 'Renamed')], [depot]))],
    ['a heading', mapFingerprint('google', { ...map, vehicles: map.vehicles.map((v) => ({ ...v, heading: 90 })) })],
    ['a geofence name', mapFingerprint('google', { ...map, geofences: [{ ...depot, description: 'Old depot' }] })],
    [
      'a GPS time',
      mapFingerprint('google', { ...map, vehicles: map.vehicles.map((v) => ({ ...v, gpsDatetime: '2027-01-01T00:00:00.000Z' })) }),
    ],
    ['a geofence', mapFingerprint('google', { ...map, geofences: [{ ...depot, radiusKm: 2 }] })],
  ])('changes with %s', (_what, changed) => {
    expect(changed).not.toBe(mapFingerprint('google', map));
  });
});
