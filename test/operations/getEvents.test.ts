import { describe, expect, it } from 'vitest';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { callOperation } from '../support/api.ts';
import { aDecidedEvent, givenDecidedEvents, givenTripWithEvents, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';

const eventsOf = (user: TestUser, params: Record<string, unknown> = {}) => callOperation('getEvents', { api_key: user.key, ...params });

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

describe('getEvents', () => {
  it('answers the event object of each event, in emission order, with a next_cursor', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user, { name: 'Truck 9' });
    const { trip, events } = await givenTripWithEvents(
      vehicle,
      { startTime: '2026-11-01T06:00:00.000Z', stopTime: '2026-11-01T06:30:00.000Z' },
      secondsAgo(60),
    );
    // Act
    const res = await eventsOf(user);
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(2);
    expect(res.body.events).toEqual(events);
    expect(res.body.events.map((event) => event.type)).toEqual(['trip.started', 'trip.completed']);
    expect(res.body.events[1]).toMatchObject({
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: {
        vehicle_uid: vehicle.vehicleUid,
        imei: vehicle.imei,
        vehicle_name: 'Truck 9',
        occurred_at: '2026-11-01 06:30:00',
        sequence: 2,
        late: 0,
        latitude: trip.stopLat,
        longitude: trip.stopLng,
        trip: { trip_uid: String(trip.tripUid), start_time: '2026-11-01 06:00:00', stop_time: '2026-11-01 06:30:00' },
      },
    });
    expect(res.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('answers only events emitted since the cursor was made, and an empty list when there are none', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenTripWithEvents(vehicle, { startTime: '2026-11-01T06:00:00.000Z', stopTime: '2026-11-01T06:30:00.000Z' }, secondsAgo(60));
    const first = await eventsOf(user);
    // Act
    const idle = await eventsOf(user, { cursor: first.body.next_cursor });
    const { events } = await givenTripWithEvents(vehicle, { startTime: '2026-11-01T08:00:00.000Z', stopTime: '2026-11-01T08:30:00.000Z' });
    const next = await eventsOf(user, { cursor: idle.body.next_cursor });
    const after = await eventsOf(user, { cursor: next.body.next_cursor });
    // Assess
    expect(idle.body).toMatchObject({ cnt: 0, events: [] });
    expect(next.body.events).toEqual(events);
    expect(after.body).toMatchObject({ cnt: 0, events: [] });
  });

  it("answers once a commit stamped before a poll's position that lands after it", async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenTripWithEvents(vehicle, { startTime: '2026-11-01T06:00:00.000Z', stopTime: '2026-11-01T06:10:00.000Z' }, secondsAgo(2));
    const first = await eventsOf(user);
    // a commit stamped before the poll's boundary, landing after it
    const other = await givenVehicle(user);
    const { events } = await givenTripWithEvents(
      other,
      { startTime: '2026-11-01T07:00:00.000Z', stopTime: '2026-11-01T07:10:00.000Z' },
      secondsAgo(4),
    );
    const next = await eventsOf(user, { cursor: first.body.next_cursor });
    const after = await eventsOf(user, { cursor: next.body.next_cursor });
    expect(next.body.events).toEqual(events);
    expect(after.body.cnt).toBe(0);
  });

  it('walks every event once in pages of limit', async () => {
    const user = await givenUser();
    const [a, b] = [await givenVehicle(user), await givenVehicle(user)];
    const emitted = [];
    for (let n = 0; n < 3; n++) {
      const startTime = `2026-11-01T0${n}:00:00.000Z`;
      const stopTime = `2026-11-01T0${n}:30:00.000Z`;
      emitted.push(...(await givenTripWithEvents(n % 2 ? a : b, { startTime, stopTime }, secondsAgo(60 - n))).events);
    }
    const seen = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await eventsOf(user, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.body.cnt).toBeLessThanOrEqual(2);
      seen.push(...res.body.events);
      cursor = res.body.next_cursor;
    }
    expect(seen).toEqual(emitted);
  });

  it('narrows to a vehicle and to types', async () => {
    const user = await givenUser();
    const [a, b] = [await givenVehicle(user), await givenVehicle(user)];
    await givenTripWithEvents(a, {}, secondsAgo(30));
    const { events } = await givenTripWithEvents(b, {}, secondsAgo(20));
    const res = await eventsOf(user, { vehicle_uid: b.vehicleUid, types: 'trip.completed' });
    expect(res.body.events).toEqual(events.filter((event) => event.type === 'trip.completed'));
  });

  it('answers from since, emission time in GMT+0, and by default the last 24 hours', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenTripWithEvents(vehicle, {}, secondsAgo(2 * 86_400));
    const { events } = await givenTripWithEvents(
      vehicle,
      { startTime: '2026-11-02T06:00:00.000Z', stopTime: '2026-11-02T06:30:00.000Z' },
      secondsAgo(60),
    );
    const since = secondsAgo(3 * 86_400)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 19);
    expect((await eventsOf(user)).body.events).toEqual(events);
    expect((await eventsOf(user, { since })).body.cnt).toBe(4);
  });

  it("shows a shared vehicle's events to every user it is linked to", async () => {
    const owner = await givenUser();
    const partner = await givenUser();
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    const { events } = await givenTripWithEvents(vehicle, {}, secondsAgo(10));
    expect((await eventsOf(owner)).body.events).toEqual(events);
    expect((await eventsOf(partner)).body.events).toEqual(events);
  });

  it("never shows another user's events", async () => {
    const owner = await givenUser();
    const other = await givenUser();
    await givenTripWithEvents(await givenVehicle(owner), {}, secondsAgo(10));
    expect((await eventsOf(other)).body).toMatchObject({ cnt: 0, events: [] });
  });
});

describe('getEvents keeps its place', () => {
  it('answers once a commit that lands minutes after its events were stamped, after a poller passed it', async () => {
    // Prepare: a poller has passed a commit made now
    const user = await givenUser();
    const [a, b] = [await givenVehicle(user), await givenVehicle(user)];
    await givenTripWithEvents(a, { startTime: '2026-11-01T06:00:00.000Z', stopTime: '2026-11-01T06:10:00.000Z' });
    const passed = await eventsOf(user);
    // Act: a commit held for ten minutes (its events stamped then, its clock behind the feed's) lands now
    const { events: late } = await givenTripWithEvents(
      b,
      { startTime: '2026-11-01T05:00:00.000Z', stopTime: '2026-11-01T05:10:00.000Z' },
      secondsAgo(600),
    );
    const next = await eventsOf(user, { cursor: passed.body.next_cursor });
    const after = await eventsOf(user, { cursor: next.body.next_cursor });
    // Assess
    expect(passed.body.cnt).toBe(2);
    expect(next.body.events).toEqual(late);
    expect(after.body).toMatchObject({ cnt: 0, events: [] });
  });

  it("answers a shared vehicle's vehicle facts to every user linked to it, a zone fact to its zone's user alone", async () => {
    // Prepare
    const [owner, partner] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    // Act
    const events = await givenDecidedEvents(vehicle, [
      aDecidedEvent('trip.started', '2026-11-01T06:00:00.000Z'),
      aDecidedEvent('geofence.entered', '2026-11-01T06:01:00.000Z', { audience: owner.userUid, zone: 41 }),
      aDecidedEvent('speeding.started', '2026-11-01T06:02:00.000Z', { audience: partner.userUid, zone: 42 }),
      aDecidedEvent('device.offline', '2026-11-01T06:03:00.000Z'),
    ]);
    // Assess
    const [trip, ownersZone, partnersZone, offline] = events;
    expect((await eventsOf(owner)).body.events).toEqual([trip, ownersZone, offline]);
    expect((await eventsOf(partner)).body.events).toEqual([trip, partnersZone, offline]);
  });

  it('answers a zone fact of a user no longer linked to the vehicle to nobody', async () => {
    const owner = await givenUser();
    const stranger = await givenUser();
    const vehicle = await givenVehicle(owner);
    await givenDecidedEvents(vehicle, [
      aDecidedEvent('geofence.entered', '2026-11-01T06:01:00.000Z', { audience: stranger.userUid, zone: 7 }),
    ]);
    expect((await eventsOf(owner)).body.cnt).toBe(0);
    expect((await eventsOf(stranger)).body.cnt).toBe(0);
  });
});

describe('getEvents refuses', () => {
  it('an altered cursor', async () => {
    const user = await givenUser();
    const cursor: string = (await eventsOf(user)).body.next_cursor;
    const altered = `${cursor.slice(0, 20)}${cursor[20] === 'A' ? 'B' : 'A'}${cursor.slice(21)}`;
    expect(await eventsOf(user, { cursor: altered })).toBeError(
      400,
      'cursor is not valid for this request (send the same filters as the call that answered it)',
    );
  });

  it("another user's cursor", async () => {
    const [owner, other] = [await givenUser(), await givenUser()];
    const cursor = (await eventsOf(owner)).body.next_cursor;
    expect(await eventsOf(other, { cursor })).toBeError(
      400,
      'cursor is not valid for this request (send the same filters as the call that answered it)',
    );
  });

  it('a vehicle of another user', async () => {
    const owner = await givenUser();
    const other = await givenUser();
    const vehicle = await givenVehicle(owner);
    expect(await eventsOf(other, { vehicle_uid: vehicle.vehicleUid })).toBeError(404, 'vehicle not found or not linked to this api key');
  });

  it('an unknown type', async () => {
    const user = await givenUser();
    expect(await eventsOf(user, { types: 'trip.completed,geofence.wobbled' })).toBeError(
      400,
      'types must be a comma list of: geofence.entered, geofence.exited, no_go.entered, no_go.exited, speeding.started, speeding.ended, ' +
        'trip.started, trip.completed, fuel.filled, fuel.dropped, device.offline, device.online, event.voided',
    );
  });

  it.each([0, 1001, 'ten'])('limit %s', async (limit) => {
    const user = await givenUser();
    expect(await eventsOf(user, { limit })).toBeError(400, 'limit must be an integer from 1 to 1000');
  });

  it('a since that is not a date and time', async () => {
    const user = await givenUser();
    expect(await eventsOf(user, { since: '2026-13-01 00:00:00' })).toBeError(400, 'since must be a date and time (yyyy-mm-dd hh:mm:ss)');
  });

  it('a cursor sent with other filters', async () => {
    const user = await givenUser();
    const first = await eventsOf(user, { types: 'trip.started' });
    expect(await eventsOf(user, { cursor: first.body.next_cursor })).toBeError(
      400,
      'cursor is not valid for this request (send the same filters as the call that answered it)',
    );
  });
});
