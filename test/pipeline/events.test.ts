/** Events the pipeline decides: once per fact, late when revealed late, voided when re-detection retracts them. */
import { describe, expect, it } from 'vitest';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { standingEvents } from '../support/event-feed.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';

const DAY = '2026-11-06';
const SINCE = { since: '2000-01-01 00:00:00', limit: 1000 };

const feedOf = async (user: TestUser): Promise<FleetEvent[]> => (await api.get('getEvents', { api_key: user.key, ...SINCE })).body.events;

/** The facts the feed holds once every voided event is taken out: type and occurred_at, in occurrence order. */
function standingFacts(events: readonly FleetEvent[]): string[] {
  return standingEvents(events)
    .map((event) => `${event.data.occurred_at} ${event.type}`)
    .sort();
}

/** A day: a morning drive, parked, an afternoon drive back, then a fill at the depot. */
function day(imei: string) {
  return {
    morning: drive(imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT).records,
    parked: parked(imei, `${DAY}T07:00:00.000Z`, 120, CLIENT, {}, 300),
    afternoon: drive(imei, `${DAY}T17:00:00.000Z`, 20, CLIENT, DEPOT).records,
    fill: [
      ...parked(imei, `${DAY}T19:00:00.000Z`, 10, DEPOT, { fuel_raw: 20 }),
      ...parked(imei, `${DAY}T19:10:00.000Z`, 20, DEPOT, { fuel_raw: 80 }),
    ],
  };
}

describe('events from the pipeline', () => {
  it('emits trip.started, trip.completed and fuel.filled once each, numbered in emission order', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const { morning, parked, afternoon, fill } = day(vehicle.imei);
    // Act
    await ingest([...morning, ...parked, ...afternoon, ...fill]);
    // Assess
    const events = await feedOf(user);
    expect(events.map((event) => `${event.data.occurred_at} ${event.type}`)).toEqual([
      `${DAY} 06:00:00 trip.started`,
      expect.stringMatching(new RegExp(`^${DAY} 06:\\d\\d:\\d\\d trip.completed$`)),
      `${DAY} 17:00:00 trip.started`,
      expect.stringMatching(new RegExp(`^${DAY} 17:\\d\\d:\\d\\d trip.completed$`)),
      expect.stringMatching(new RegExp(`^${DAY} 19:\\d\\d:\\d\\d fuel.filled$`)),
    ]);
    expect(events.map((event) => event.data.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every((event) => event.data.late === 0 && event.data.vehicle_uid === vehicle.vehicleUid)).toBe(true);
    expect(events[4]?.data).toMatchObject({
      fill_qty: expect.any(Number),
      fuel_level_after: expect.any(Number),
      location: expect.any(String),
    });
  });

  it('emits nothing for a replayed batch', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const { morning, parked } = day(vehicle.imei);
    await ingest([...morning, ...parked], 'events-replay');
    const first = await feedOf(user);
    await ingest([...morning, ...parked], 'events-replay');
    expect(await feedOf(user)).toEqual(first);
  });

  it('marks a fact revealed by late points late, and voids and re-emits a fact they change', async () => {
    // Prepare: the afternoon and the fill arrive first
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const { morning, parked, afternoon, fill } = day(vehicle.imei);
    await ingest([...parked, ...afternoon, ...fill]);
    const before = await feedOf(user);
    // Act: the morning, buffered while out of coverage
    await ingest([...morning].reverse());
    // Assess
    const events = await feedOf(user);
    const added = events.slice(before.length);
    const morningEvents = added.filter((event) => event.data.occurred_at.startsWith(`${DAY} 06:`));
    expect(morningEvents.map((event) => [event.type, event.data.late])).toEqual([
      ['trip.started', 1],
      ['trip.completed', 1],
    ]);
    // the afternoon trip's odometer moved: its completed event is voided and emitted anew with a new id
    const voided = added.filter((event) => event.type === 'event.voided');
    const reissued = added.filter((event) => event.type === 'trip.completed' && event.data.occurred_at.startsWith(`${DAY} 17:`));
    expect(voided.map((event) => event.data.voided_type)).toContain('trip.completed');
    expect(reissued).toHaveLength(1);
    expect(before.map((event) => event.event_id)).not.toContain(reissued[0]?.event_id);
    // and the standing facts are those of in-order delivery
    const inOrder = await givenUser();
    const twin = await givenVehicle(inOrder);
    const again = day(twin.imei);
    await ingest([...again.morning, ...again.parked, ...again.afternoon, ...again.fill]);
    expect(standingFacts(events)).toEqual(standingFacts(await feedOf(inOrder)));
  });

  it('holds the same standing facts whatever order the batches arrive in', async () => {
    const inOrder = await givenUser();
    const shuffled = await givenUser();
    const a = await givenVehicle(inOrder);
    const b = await givenVehicle(shuffled);
    const first = day(a.imei);
    await ingest([...first.morning, ...first.parked, ...first.afternoon, ...first.fill]);
    const second = day(b.imei);
    for (const part of [second.fill, second.morning, second.afternoon, second.parked]) await ingest([...part].reverse());
    expect(standingFacts(await feedOf(shuffled))).toEqual(standingFacts(await feedOf(inOrder)));
  });
});
