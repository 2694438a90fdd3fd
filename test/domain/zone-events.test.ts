/** Zone and speeding events decided from cleaned points: hysteresis, dwell, sparse fixes, limits, faults. */
import { describe, expect, it } from 'vitest';
import type { DecidedEvent } from '../../shared/domain/events/event.ts';
import {
  initialZoneState,
  type UserZones,
  walkZones,
  type ZoneFact,
  type ZoneSettings,
  zoneChanges,
} from '../../shared/domain/events/zone-events.ts';
import { ZoneIndex } from '../../shared/domain/events/zone-index.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import type { UserLocation } from '../../shared/domain/user-location.ts';
import { at, aZone, CENTRE, driveThrough, eastOf, fixes, KM_PER_LNG, SETTINGS } from '../support/zone-walk-builders.ts';

const USER = 7;
/** The zones of the vehicle's one user. */
const ofUser = (zones: UserLocation[]): UserZones[] => [{ userUid: USER, index: new ZoneIndex(zones) }];

const walk = (zones: UserLocation[], points: Position[], settings: Partial<ZoneSettings> = {}) =>
  walkZones(initialZoneState(), points, ofUser(zones), { ...SETTINGS, ...settings }).facts.map(({ event }) => event);

const brief = (events: DecidedEvent[]) =>
  events.map((event) => `${event.occurredAt.slice(11, 19)} ${event.type} ${event.fields.interpolated ?? ''}`.trim());

describe('geofence events', () => {
  it('fires entered at the first fix inside and exited at the first fix beyond the margin', () => {
    const zone = aZone();
    // fixes every 200 m from 2 km west: -0.4 km (4 min) is the first inside, 0.6 km (6.5 min) the first beyond 0.5 + 0.05
    expect(brief(walk([zone], driveThrough()))).toEqual(['06:04:00 geofence.entered 0', '06:06:30 geofence.exited 0']);
  });

  it("carries the zone on its events, for the zone's user", () => {
    const zone = aZone({ speed: 60, only_push: 1, description: 'Midrand depot' });
    const [entered] = walk([zone], driveThrough());
    expect(entered?.audience).toBe(USER);
    expect(entered?.fields).toEqual({
      user_location_uid: zone.userLocationUid,
      description: 'Midrand depot',
      speed: 60,
      only_push: 1,
      interpolated: 0,
    });
    expect(entered?.subject).toBe(`zone:${zone.userLocationUid}`);
  });

  it('fires nothing more for jitter along the edge within the margin', () => {
    const zone = aZone();
    const jitter = fixes(Array.from({ length: 20 }, (_, i) => [i * 60, i % 2 ? 0.49 : 0.53, 0] as [number, number, number]));
    expect(brief(walk([zone], jitter))).toEqual(['06:01:00 geofence.entered 0']);
  });

  it('uses a 20 m margin outside a polygon', () => {
    const half = 0.5 / KM_PER_LNG;
    const zone = aZone({
      location_type: 'polygon',
      points: [
        { lat: -25.99, lng: 28.05 - half },
        { lat: -25.99, lng: 28.05 + half },
        { lat: -26.01, lng: 28.05 + half },
        { lat: -26.01, lng: 28.05 - half },
      ],
    });
    const jitter = fixes([
      [0, 0.4, 0],
      [60, 0.51, 0],
      [120, 0.49, 0],
      [180, 0.515, 0],
      [240, 0.53, 0],
    ]);
    expect(brief(walk([zone], jitter))).toEqual(['06:00:00 geofence.entered 0', '06:04:00 geofence.exited 0']);
  });

  it('fires the no_go pair for a no-go zone', () => {
    expect(brief(walk([aZone({ no_go: 1 })], driveThrough()))).toEqual(['06:04:00 no_go.entered 0', '06:06:30 no_go.exited 0']);
  });

  it('interpolates the crossing when two sparse fixes straddle the zone', () => {
    const zone = aZone();
    const events = walk(
      [zone],
      fixes([
        [0, -2.5],
        [500, 2.5],
      ]),
    );
    // 5 km in 500 s: the 1 km disc from 200 s to 300 s
    expect(brief(events)).toEqual(['06:03:20 geofence.entered 1', '06:05:00 geofence.exited 1']);
    expect(events[0]?.longitude).toBeCloseTo(eastOf(-0.5).lng, 4);
  });

  it('interpolates no crossing over a gap longer than ten minutes', () => {
    expect(
      walk(
        [aZone()],
        fixes([
          [0, -2],
          [601, 2],
        ]),
      ),
    ).toEqual([]);
  });

  it('fires entered only once a stay lasts the dwell, stamped at the real entry', () => {
    const zone = aZone();
    const stay = fixes([
      [0, -1],
      [60, -0.3, 0],
      [200, -0.2, 0],
      [400, 0, 0],
      [460, 1],
    ]);
    expect(brief(walk([zone], stay, { dwellS: 300 }))).toEqual(['06:01:00 geofence.entered 0', '06:07:40 geofence.exited 0']);
    // passing through in 4 minutes is not a stay
    expect(walk([zone], driveThrough(), { dwellS: 300 })).toEqual([]);
  });

  it('ignores a 0,0 fix, an invalid fix and a jump', () => {
    const zone = aZone();
    const away = fixes([
      [0, -3],
      [10, -2.9, 40, { latitude: 0, longitude: 0 }],
      [20, 0, 40, { valid: false }],
      [30, 0, 40],
      [40, -2.8],
    ]);
    expect(walk([zone], away)).toEqual([]);
  });

  it('decides the same facts walked in pieces from the hourly state as walked at once', () => {
    const zones = [aZone(), aZone({ latitude: CENTRE.lat, longitude: eastOf(1.5).lng, radius: 0.3, speed: 20 })];
    const points = fixes(Array.from({ length: 240 }, (_, i) => [i * 30, -3 + i * 0.025, 30] as [number, number, number]));
    const users = ofUser(zones);
    const whole = walkZones(initialZoneState(), points, users, SETTINGS);
    const firstHour = walkZones(initialZoneState(), points.slice(0, 120), users, SETTINGS);
    const secondHour = walkZones(whole.checkpoints.get('2026-11-06T07') ?? initialZoneState(), points.slice(120), users, SETTINGS);
    expect([...firstHour.facts, ...secondHour.facts]).toEqual(whole.facts);
    expect(whole.facts.length).toBeGreaterThan(2);
  });
});

describe('speeding events', () => {
  it('starts at the first fix above the zone limit and ends at the first fix at or below it, once each lasted speedingMinS', () => {
    const zone = aZone({ radius: 5, speed: 60 });
    const events = walk(
      [zone],
      fixes([
        [0, 0, 50],
        [30, 0.5, 70],
        [60, 1, 90],
        [90, 1.5, 65],
        [120, 2, 50],
        [150, 2.4, 55],
        [180, 2.8, 70],
      ]),
    );
    const speeding = events.filter((event) => event.type.startsWith('speeding'));
    expect(speeding.map((event) => [event.type, event.occurredAt, event.fields])).toEqual([
      ['speeding.started', at(30), { limit_kmh: 60, speed_kmh: 70, user_location_uid: zone.userLocationUid }],
      ['speeding.ended', at(120), { limit_kmh: 60, max_speed_kmh: 90, duration_s: 90, user_location_uid: zone.userLocationUid }],
    ]);
  });

  it('ignores a burst shorter than speedingMinS', () => {
    const zone = aZone({ radius: 5, speed: 60 });
    expect(
      walk(
        [zone],
        fixes([
          [0, 0, 50],
          [20, 0.3, 80],
          [40, 0.6, 50],
          [70, 1, 50],
        ]),
      ),
    ).toEqual([expect.objectContaining({ type: 'geofence.entered' })]);
  });

  it("takes the lowest limit of the user's zones it is in; the vehicle's own limit makes the vehicle's speeding", () => {
    const wide = aZone({ radius: 50, speed: 100 });
    const town = aZone({ radius: 1, speed: 40 });
    const inTown = walk(
      [wide, town],
      fixes([
        [0, 0, 80],
        [30, 0.2, 80],
        [60, 0.4, 80],
      ]),
    );
    expect(inTown.find((event) => event.type === 'speeding.started')?.fields).toMatchObject({
      limit_kmh: 40,
      user_location_uid: town.userLocationUid,
    });
    const open = walk(
      [],
      fixes([
        [0, 0, 130],
        [30, 1, 130],
      ]),
      { speedLimitKmh: 120 },
    );
    expect(open.map((event) => [event.type, event.fields.user_location_uid, event.fields.limit_kmh, event.audience])).toEqual([
      ['speeding.started', null, 120, undefined],
    ]);
  });
});

describe('the zone index', () => {
  it('answers only the zones near a point among ten thousand', () => {
    const zones = Array.from({ length: 10_000 }, (_, i) =>
      aZone({ latitude: -26 + Math.floor(i / 100) * 0.05, longitude: 28 + (i % 100) * 0.05, radius: 0.5 }),
    );
    const index = new ZoneIndex(zones);
    const near = index.near({ lat: -26 + 0.05 * 10, lng: 28 + 0.05 * 20 });
    expect(near.map((zone) => zone.userLocationUid)).toEqual([(zones[10 * 100 + 20] as UserLocation).userLocationUid]);
  });
});

describe('what a walk changes against the stored facts', () => {
  const zone = aZone();
  const users = ofUser([zone]);
  const facts = walkZones(initialZoneState(), driveThrough(), users, SETTINGS).facts;
  const [entered, exited] = facts as [ZoneFact, ZoneFact];

  it('emits the facts not stored and writes them', () => {
    const change = zoneChanges(1, [entered], facts, users);
    expect(change.events.map((event) => event.type)).toEqual(['geofence.exited']);
    expect(change.put).toEqual([exited]);
    expect(change.remove).toEqual([]);
  });

  it('voids the stored facts no longer found and deletes them', () => {
    const change = zoneChanges(1, facts, [entered], users);
    expect(change.events.map((event) => [event.type, event.fields.voided_type])).toEqual([['event.voided', 'geofence.exited']]);
    expect(change.remove).toEqual([exited]);
  });

  it('moves a fact decided at another point without an event', () => {
    const later = { ...exited, decidedAt: at(999) };
    const change = zoneChanges(1, [entered, exited], [entered, later], users);
    expect(change.events).toEqual([]);
    expect(change).toMatchObject({ put: [later], remove: [exited] });
  });
});
