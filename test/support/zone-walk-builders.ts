/** Zones and fixes along a line of latitude, for the zone walk's domain tests: distances in km east of a centre. */
import type { StoredZoneState, ZoneFact, ZoneSettings, ZoneState } from '../../shared/domain/events/zone-events.ts';
import type { LatLng } from '../../shared/domain/geo.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { type LocationParams, locationChanges, newLocation, type UserLocation } from '../../shared/domain/user-location.ts';
import { aPositionRecord, positionOf } from './position-builders.ts';

export const START = '2026-11-06T06:00:00.000Z';
export const CENTRE: LatLng = { lat: -26, lng: 28.05 };
/** km per degree of longitude at -26° */
export const KM_PER_LNG = 111.195 * Math.cos((26 * Math.PI) / 180);
export const SETTINGS: ZoneSettings = { dwellS: 0, speedingMinS: 30, speedLimitKmh: 0, maxSpeedKmh: 250 };

let nextUid = 1;
/** A zone as a user's store holds it: 500 m around the centre unless told otherwise, with a uid of its own. */
export function aZone(params: LocationParams = {}): UserLocation {
  return {
    ...newLocation({ description: 'Depot', latitude: CENTRE.lat, longitude: CENTRE.lng, radius: 0.5, ...params }),
    userLocationUid: nextUid++,
  };
}

/** The same zone after an edit (editUserLocation's rule): the same uid, the definition changed. */
export function edited(zone: UserLocation, params: LocationParams): UserLocation {
  const changes = Object.entries(locationChanges(zone, params)).filter(([, value]) => value !== undefined);
  return { ...zone, ...Object.fromEntries(changes) };
}

export const at = (seconds: number): string => new Date(Date.parse(START) + seconds * 1000).toISOString();
/** A fix `km` east of the centre (negative: west). */
export const eastOf = (km: number): LatLng => ({ lat: CENTRE.lat, lng: CENTRE.lng + km / KM_PER_LNG });

/** Fixes at [seconds after START, km east of the centre, speed (default 40 km/h), record fields]. */
export function fixes(list: Array<[seconds: number, km: number, speed?: number, overrides?: Record<string, unknown>]>): Position[] {
  return list.map(([seconds, km, speed = 40, overrides = {}]) => {
    const { lat, lng } = eastOf(km);
    return positionOf(
      aPositionRecord('356307042441013', at(seconds), { latitude: lat, longitude: lng, speed, ignition: true, ...overrides }),
    );
  });
}

/** West to east, 200 m every 30 s (24 km/h), at `speed` as the device reports it. */
export const driveThrough = (fromKm = -2, toKm = 2, speed = 40) =>
  fixes(
    Array.from({ length: Math.round((toKm - fromKm) / 0.2) + 1 }, (_, i) => [i * 30, fromKm + i * 0.2, speed] as [number, number, number]),
  );

/** The state as a checkpoint written before the walk was per user held it: every user's stays and speeding merged. */
export function mergedZoneState(state: ZoneState): StoredZoneState {
  const users = Object.values(state.users);
  return {
    last: state.last,
    jumps: state.jumps,
    stays: users.flatMap((user) => user.stays),
    above: users.find((user) => user.above)?.above ?? state.vehicle.above,
    speeding: users.find((user) => user.speeding)?.speeding ?? state.vehicle.speeding,
  };
}

/** A fact as items stored before the walk was per user held it: no audience, no zone version. */
export function legacyZoneFact(fact: ZoneFact): ZoneFact {
  const { audience: _audience, ...event } = fact.event;
  return { decidedAt: fact.decidedAt, event };
}
