/**
 * Who each decided event is for, with a vehicle linked to two users (and a third without zones): a fact derived from
 * a user's zones is that user's alone (`audience`), a vehicle fact (trips, fuel, device, speeding above the vehicle's
 * own limit) has none and is decided once. Checkpoints and fact items stored before the walk was per user still read.
 */
import { describe, expect, it } from 'vitest';
import { fillEvents, tripEvents } from '../../shared/domain/events/detection-events.ts';
import { type DecidedEvent, eventIdOf } from '../../shared/domain/events/event.ts';
import { dropEvents } from '../../shared/domain/events/fuel-drops.ts';
import { offlineEvent, onlineEvent } from '../../shared/domain/events/quiet-events.ts';
import { initialZoneState, type UserZones, walkZones, type ZoneSettings, zoneChanges } from '../../shared/domain/events/zone-events.ts';
import { ZoneIndex } from '../../shared/domain/events/zone-index.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import type { UserLocation } from '../../shared/domain/user-location.ts';
import { at, aZone, CENTRE, eastOf, fixes, legacyZoneFact, mergedZoneState, SETTINGS } from '../support/zone-walk-builders.ts';

const [A, B, C] = [101, 102, 103];
const VEHICLE = 9;

const usersOf = (zones: Record<number, UserLocation[]>): UserZones[] =>
  Object.entries(zones).map(([user, list]) => ({ userUid: Number(user), index: new ZoneIndex(list) }));

const decided = (zones: UserZones[], points: Position[], settings: Partial<ZoneSettings> = {}) =>
  walkZones(initialZoneState(), points, zones, { ...SETTINGS, ...settings }).facts.map(({ event }) => event);

const summary = (events: DecidedEvent[]) =>
  events.map((event) => `${event.type} ${event.fields.user_location_uid ?? 'vehicle'} ${event.audience ?? 'all'}`);

/** West to east from -3 km to 6 km, 200 m every 30 s, at 40 km/h but 60 km/h from 3 km on. */
const route = () =>
  fixes(Array.from({ length: 46 }, (_, i) => [i * 30, -3 + i * 0.2, -3 + i * 0.2 >= 3 ? 60 : 40] as [number, number, number]));

describe('a vehicle linked to two users, each with zones on its route', () => {
  const depotOfA = aZone({ description: 'A depot', speed: 30 });
  const yardOfB = aZone({ description: 'B yard', no_go: 1, longitude: eastOf(1.5).lng, radius: 0.3 });
  const zones = usersOf({ [A]: [depotOfA], [B]: [yardOfB], [C]: [] });

  it("gives each user's zone events to that user alone: geofence.entered/exited, no_go.entered/exited", () => {
    const events = decided(zones, route()).filter((event) => !event.type.startsWith('speeding'));
    expect(summary(events)).toEqual([
      `geofence.entered ${depotOfA.userLocationUid} ${A}`,
      `geofence.exited ${depotOfA.userLocationUid} ${A}`,
      `no_go.entered ${yardOfB.userLocationUid} ${B}`,
      `no_go.exited ${yardOfB.userLocationUid} ${B}`,
    ]);
  });

  it("gives speeding under a user's zone limit to that user, and speeding above the vehicle's own limit to all, once", () => {
    const speeding = decided(zones, route(), { speedLimitKmh: 50 }).filter((event) => event.type.startsWith('speeding'));
    expect(summary(speeding)).toEqual([
      `speeding.started ${depotOfA.userLocationUid} ${A}`,
      `speeding.ended ${depotOfA.userLocationUid} ${A}`,
      'speeding.started vehicle all',
    ]);
    expect(speeding.map((event) => event.fields.limit_kmh)).toEqual([30, 30, 50]);
  });

  it("decides the vehicle's speeding the same whichever users are linked, with the same id", () => {
    const vehicleSpeeding = (users: UserZones[]) =>
      decided(users, route(), { speedLimitKmh: 50 })
        .filter((event) => event.audience === undefined)
        .map((event) => eventIdOf(VEHICLE, event));
    const alone = vehicleSpeeding([]);
    expect(alone).toHaveLength(1);
    expect(vehicleSpeeding(zones)).toEqual(alone);
    expect(vehicleSpeeding(usersOf({ [A]: [depotOfA] }))).toEqual(alone);
  });

  it("decides a user's facts the same whoever else is linked", () => {
    const factsOfA = (users: UserZones[]) => decided(users, route(), { speedLimitKmh: 50 }).filter((event) => event.audience === A);
    expect(factsOfA(zones)).toEqual(factsOfA(usersOf({ [A]: [depotOfA] })));
    expect(factsOfA(zones).length).toBeGreaterThan(0);
  });

  it('gives a user without zones no fact of its own', () => {
    expect(decided(zones, route(), { speedLimitKmh: 50 }).filter((event) => event.audience === C)).toEqual([]);
    expect(summary(decided(usersOf({ [C]: [] }), route(), { speedLimitKmh: 50 }))).toEqual(['speeding.started vehicle all']);
  });

  it("takes each user's lowest limit among that user's zones only, where both users' zones overlap", () => {
    const wideOfA = aZone({ description: 'A district', radius: 3, speed: 100 });
    const schoolOfB = aZone({ description: 'B school', radius: 0.5, speed: 30 });
    const events = decided(usersOf({ [A]: [wideOfA], [B]: [schoolOfB] }), route());
    expect(summary(events)).toEqual([
      `geofence.entered ${wideOfA.userLocationUid} ${A}`,
      `geofence.entered ${schoolOfB.userLocationUid} ${B}`,
      `speeding.started ${schoolOfB.userLocationUid} ${B}`,
      `geofence.exited ${schoolOfB.userLocationUid} ${B}`,
      `speeding.ended ${schoolOfB.userLocationUid} ${B}`,
      `geofence.exited ${wideOfA.userLocationUid} ${A}`,
    ]);
  });

  it('gives each user its own events, under distinct ids, for two zones of the same place', () => {
    const ofA = aZone({ description: 'Depot' });
    const ofB = aZone({ description: 'Depot' });
    const entered = decided(usersOf({ [A]: [ofA], [B]: [ofB] }), route()).filter((event) => event.type === 'geofence.entered');
    expect(entered.map((event) => [event.audience, event.fields.user_location_uid])).toEqual([
      [A, ofA.userLocationUid],
      [B, ofB.userLocationUid],
    ]);
    expect(new Set(entered.map((event) => eventIdOf(VEHICLE, event))).size).toBe(2);
  });

  it('voids each retracted fact for its own user alone', () => {
    const points = fixes([
      [0, -2.5],
      [500, 2.5],
    ]);
    const stored = walkZones(initialZoneState(), points, zones, SETTINGS).facts;
    // a late fix between them shows the vehicle went round both zones: the interpolated crossings never happened
    const late = fixes([[250, 0, 40, { latitude: CENTRE.lat + 0.05 }]]);
    const found = walkZones(initialZoneState(), [points[0], ...late, points[1]] as Position[], zones, SETTINGS).facts;
    const change = zoneChanges(VEHICLE, stored, found, zones);
    expect(change.events.map((event) => [event.type, event.fields.voided_type, event.audience])).toEqual([
      ['event.voided', 'geofence.entered', A],
      ['event.voided', 'geofence.exited', A],
      ['event.voided', 'no_go.entered', B],
      ['event.voided', 'no_go.exited', B],
    ]);
  });
});

describe('vehicle facts', () => {
  it('trip, fuel and device events have no audience: every linked user gets them', () => {
    const trip = {
      tripUid: 1,
      vehicleUid: VEHICLE,
      startTime: at(0),
      stopTime: at(1800),
      odometerAtStart: 1000,
      distanceKm: 21.5,
      durationS: 1800,
      maxSpeed: 88,
      fuelStart: 60,
      fuelEnd: 56.5,
      startLat: CENTRE.lat,
      startLng: CENTRE.lng,
      startLocation: 'Depot',
      stopLat: CENTRE.lat,
      stopLng: eastOf(20).lng,
      stopLocation: 'Client',
      driverName: null,
      driverTagId: null,
    };
    const fill = {
      eventUid: 2,
      vehicleUid: VEHICLE,
      at: at(2000),
      latitude: CENTRE.lat,
      longitude: CENTRE.lng,
      location: 'Depot',
      levelBefore: 10,
      levelAfter: 60,
      fillQty: 50,
      odometerKm: 1021.5,
      engineHours: null,
      operatorUid: null,
      operatorName: null,
      tripUid: 1,
      distanceKm: null,
      durationS: null,
      fuelUsed: null,
      slipUid: null,
    };
    const where = { latitude: CENTRE.lat, longitude: CENTRE.lng };
    const events = [
      ...tripEvents(trip),
      ...fillEvents(fill),
      ...dropEvents({ at: at(3000), ...where, levelBefore: 60, levelAfter: 40, dropQty: 20, moving: false }),
      offlineEvent(at(3600), at(5400), where),
      onlineEvent(at(3600), at(7200), where),
    ];
    expect(events.map((event) => event.type)).toEqual([
      'trip.started',
      'trip.completed',
      'fuel.filled',
      'fuel.dropped',
      'device.offline',
      'device.online',
    ]);
    expect(events.filter((event) => 'audience' in event)).toEqual([]);
  });
});

describe('zone state and facts stored before the walk was per user', () => {
  const depotOfA = aZone({ description: 'A depot', speed: 30, radius: 1 });
  const yardOfB = aZone({ description: 'B yard', radius: 1 });
  const zones = usersOf({ [A]: [depotOfA], [B]: [yardOfB] });
  const points = fixes(Array.from({ length: 30 }, (_, i) => [i * 60, -2 + i * 0.15] as [number, number]));
  const whole = walkZones(initialZoneState(), points, zones, SETTINGS);
  /** after ten minutes: inside both zones and speeding under A's limit */
  const midway = walkZones(initialZoneState(), points.slice(0, 10), zones, SETTINGS).state;
  it("splits a merged checkpoint's stays and speeding by each zone's owner", () => {
    // Prepare
    expect(midway.users[A]?.speeding).not.toBeNull();
    expect(midway.users[B]?.stays).toHaveLength(1);
    // Act
    const fromMerged = walkZones(mergedZoneState(midway), points.slice(10), zones, SETTINGS);
    const fromToday = walkZones(midway, points.slice(10), zones, SETTINGS);
    // Assess
    expect(fromMerged.facts).toEqual(fromToday.facts);
    expect(summary(fromMerged.facts.map(({ event }) => event))).toEqual([
      `geofence.exited ${depotOfA.userLocationUid} ${A}`,
      `geofence.exited ${yardOfB.userLocationUid} ${B}`,
      `speeding.ended ${depotOfA.userLocationUid} ${A}`,
    ]);
  });

  it("compares fact items without audience or zone version as today's, and voids them for the zone's owner", () => {
    // Prepare: the facts as items stored before audiences held them
    const stored = whole.facts.map(legacyZoneFact);
    // Act
    const again = zoneChanges(VEHICLE, stored, whole.facts, zones);
    const retracted = zoneChanges(
      VEHICLE,
      stored,
      whole.facts.filter(({ event }) => event.fields.user_location_uid !== yardOfB.userLocationUid),
      zones,
    );
    // Assess
    expect(again).toEqual({ events: [], put: [], remove: [] });
    expect(retracted.events.map((event) => [event.type, event.fields.voided_type, event.audience])).toEqual([
      ['event.voided', 'geofence.entered', B],
      ['event.voided', 'geofence.exited', B],
    ]);
  });
});
