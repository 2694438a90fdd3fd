/**
 * History as it was told: an edit or delete of a zone changes its events from then on; the events already emitted
 * are never voided nor emitted again, when the window they were decided in is walked again with the zone as it is
 * now (the next batch re-walks its hour; late points re-walk theirs).
 */
import { describe, expect, it } from 'vitest';
import type { DecidedEvent } from '../../shared/domain/events/event.ts';
import { initialZoneState, type UserZones, walkZones, type ZoneFact, zoneChanges } from '../../shared/domain/events/zone-events.ts';
import { ZoneIndex } from '../../shared/domain/events/zone-index.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import type { LocationParams, UserLocation } from '../../shared/domain/user-location.ts';
import { at, aZone, driveThrough, eastOf, edited, fixes, SETTINGS } from '../support/zone-walk-builders.ts';

const USER = 5;
const VEHICLE = 3;
const ofUser = (zones: UserLocation[]): UserZones[] => [{ userUid: USER, index: new ZoneIndex(zones) }];

/** West to east through the zone (entered 06:04:00, exited 06:06:30 as it stands); the first batch ends inside, at 06:05. */
const points = driveThrough(-2, 2);
const INSIDE = 11;

/**
 * What the stored facts are once the points up to `until` were walked with the zone as it was, and what walking every
 * point again with the zones now emits.
 */
function afterEdit(before: UserLocation[], now: UserLocation[], until = INSIDE, walked: Position[] = points) {
  const stored = walkZones(initialZoneState(), points.slice(0, until), ofUser(before), SETTINGS).facts;
  const found = walkZones(initialZoneState(), walked, ofUser(now), SETTINGS, stored).facts;
  return { stored, found, change: zoneChanges(VEHICLE, stored, found, ofUser(now)) };
}

const told = (events: DecidedEvent[]) =>
  events.map((event) => `${event.occurredAt.slice(11, 19)} ${event.type} ${event.fields.description ?? event.fields.limit_kmh}`);

describe('a zone edited while the vehicle is in it', () => {
  it('keeps its stay when renamed: the entered stands, the exited comes under the new name', () => {
    // Prepare
    const zone = aZone({ description: 'Depot' });
    const renamed = edited(zone, { description: 'Yard' });
    // Act
    const { stored, found, change } = afterEdit([zone], [renamed]);
    const next = zoneChanges(VEHICLE, [...stored, ...change.put], found, ofUser([renamed]));
    // Assess
    expect(told(change.events)).toEqual(['06:06:30 geofence.exited Yard']);
    expect(change.remove).toEqual([]);
    expect(next).toEqual({ events: [], put: [], remove: [] });
  });

  it.each<[string, LocationParams, string[]]>([
    ['its speed limit changes', { speed: 60 }, ['06:06:30 geofence.exited Depot']],
    ['it becomes a no-go zone', { no_go: 1 }, ['06:06:30 no_go.exited Depot']],
    ['it becomes push-only', { only_push: 1 }, ['06:06:30 geofence.exited Depot']],
  ])('keeps its stay when %s, and emits the rest as the zone is now', (_edit, params, expected) => {
    const zone = aZone();
    const { change } = afterEdit([zone], [edited(zone, params)]);
    expect(told(change.events)).toEqual(expected);
    expect(change.events.at(-1)?.fields).toMatchObject({ speed: params.speed ?? 0, only_push: params.only_push ?? 0 });
  });

  it('continues speeding under the limit it started with, and ends it under the limit now', () => {
    // Prepare: speeding at 40 in a 30 zone since 06:04; the limit is raised to 60
    const zone = aZone({ speed: 30 });
    // Act
    const { stored, change } = afterEdit([zone], [edited(zone, { speed: 60 })]);
    // Assess
    expect(told(stored.map(({ event }) => event))).toEqual(['06:04:00 geofence.entered Depot', '06:04:00 speeding.started 30']);
    expect(told(change.events)).toEqual(['06:05:00 speeding.ended 30', '06:06:30 geofence.exited Depot']);
  });

  it('ends the stay with an exited at the first point walked again beyond the zone, when moved away', () => {
    const zone = aZone();
    const { change } = afterEdit([zone], [edited(zone, { latitude: zone.latitude + 0.05 })]);
    // the entered was told at 06:04:00; the next point is the first judged against the moved zone
    expect(change.events.map((event) => [event.occurredAt, event.type, event.fields.interpolated])).toEqual([
      [at(270), 'geofence.exited', 0],
    ]);
  });

  it('keeps the stay, without a second entered, when moved but still around the vehicle', () => {
    const zone = aZone();
    const { change } = afterEdit([zone], [edited(zone, { longitude: eastOf(0.3).lng })]);
    // 0.3 + 0.5 km, and its 50 m margin: 1.0 km east is the first fix beyond
    expect(told(change.events)).toEqual(['06:07:30 geofence.exited Depot']);
  });

  it('ends the stay without an exited when deleted, voiding nothing', () => {
    const { stored, change } = afterEdit([aZone()], []);
    expect(told(stored.map(({ event }) => event))).toEqual(['06:04:00 geofence.entered Depot']);
    expect(change).toEqual({ events: [], put: [], remove: [] });
  });
});

describe('a zone edited after the vehicle left it', () => {
  it.each<[string, (zone: UserLocation) => UserLocation[]]>([
    ['renamed', (zone) => [edited(zone, { description: 'Yard' })]],
    ['made a no-go zone', (zone) => [edited(zone, { no_go: 1 })]],
    ['moved', (zone) => [edited(zone, { longitude: eastOf(5).lng })]],
    ['deleted', () => []],
    ['recoloured', (zone) => [edited(zone, { color: 'red', icon: 'truck' })]],
  ])('leaves its events as they were told when %s', (_edit, edit) => {
    const zone = aZone();
    const { stored, change } = afterEdit([zone], edit(zone), points.length);
    expect(stored).toHaveLength(2);
    expect(change).toEqual({ events: [], put: [], remove: [] });
  });

  it('voids nothing when late points re-walk the window after the edit', () => {
    // Prepare: a fix that arrives late, in the middle of the visit told before the rename
    const zone = aZone();
    const late = fixes([[285, -0.05]]);
    const walked = [...points.slice(0, 10), ...late, ...points.slice(10)];
    // Act
    const { change } = afterEdit([zone], [edited(zone, { description: 'Yard', radius: 0.4 })], points.length, walked);
    // Assess
    expect(change).toEqual({ events: [], put: [], remove: [] });
  });

  it('still voids what a late point retracts in a zone unchanged since', () => {
    const zone = aZone();
    const sparse = fixes([
      [0, -2.5],
      [500, 2.5],
    ]);
    const stored: ZoneFact[] = walkZones(initialZoneState(), sparse, ofUser([zone]), SETTINGS).facts;
    const roundAbout = [sparse[0], ...fixes([[250, 0, 40, { latitude: zone.latitude + 0.05 }]]), sparse[1]] as Position[];
    const found = walkZones(initialZoneState(), roundAbout, ofUser([zone]), SETTINGS, stored).facts;
    expect(zoneChanges(VEHICLE, stored, found, ofUser([zone])).events.map((event) => event.fields.voided_type)).toEqual([
      'geofence.entered',
      'geofence.exited',
    ]);
  });
});
