/**
 * The quiet-vehicles check: open trips of silent vehicles closed without waiting for the next point, and devices
 * declared offline and back online on the service's clock. Its clock is set by the test: every time here is in 2001,
 * before any other test's, so a check run here finds only this file's vehicles due.
 */
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/checkQuietVehicles/handler.ts';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { rescheduleQuietCheck } from '../../shared/store/quiet-vehicles.ts';
import { findTrackedVehiclesByUid } from '../../shared/store/tracks.ts';
import { setVehicleDetection } from '../../shared/store/vehicles.ts';
import { api } from '../support/api.ts';
import { asFunction } from '../support/as-function.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { aPositionRecord, CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';

const DAY = '2001-03-01';
const SINCE = { since: '2000-01-01 00:00:00', limit: 1000 };
const at = (time: string, plusS = 0): Date => new Date(Date.parse(`${DAY}T${time}Z`) + plusS * 1000);

/** The schedule fires at `now`: the handler, with the event EventBridge sends, under its role's permissions. */
const checkQuietVehicles = (now: Date) =>
  asFunction('checkQuietVehicles', () =>
    handler(
      {
        version: '0',
        id: crypto.randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '000000000000',
        time: now.toISOString(),
        region: 'local',
        resources: [],
        detail: {},
      },
      { functionName: 'checkQuietVehicles', awsRequestId: crypto.randomUUID() } as never,
    ),
  );

const feedOf = async (user: TestUser): Promise<FleetEvent[]> => (await api.get('getEvents', { api_key: user.key, ...SINCE })).body.events;
const factsOf = async (user: TestUser): Promise<string[]> => (await feedOf(user)).map((event) => `${event.data.occurred_at} ${event.type}`);
const tripsOf = async (user: TestUser) =>
  (await api.get('getTrips', { api_key: user.key, start_date: DAY, end_date: DAY })).body.vehicles[0]?.trips ?? [];

/** A drive out of the depot that stops reporting on the road, ignition still on: its trip stays open. */
function driveCutOff(imei: string) {
  const { records } = drive(imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT);
  return records.slice(0, 20);
}
const lastOf = (records: ReadonlyArray<{ gps_datetime: string }>) => (records.at(-1) as { gps_datetime: string }).gps_datetime;

describe('the quiet-vehicles check', () => {
  it('closes the open trip of a vehicle silent longer than the gap rule at its last point, so getTrips shows it', async () => {
    // Prepare: taken at 06:10; the gap rule is an hour
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const records = driveCutOff(vehicle.imei);
    await ingest(records, undefined, at('06:10:00'));
    await checkQuietVehicles(at('07:09:59'));
    expect(await tripsOf(user)).toEqual([]);
    // Act
    await checkQuietVehicles(at('07:10:00'));
    // Assess
    const trips = await tripsOf(user);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ start_time: `${DAY} 06:00:00`, stop_time: lastOf(records).slice(0, 19).replace('T', ' ') });
    expect(await factsOf(user)).toEqual([
      `${DAY} 06:40:00 device.offline`,
      `${DAY} 06:00:00 trip.started`,
      `${lastOf(records).slice(0, 19).replace('T', ' ')} trip.completed`,
    ]);
  });

  it('closes a trip once: checks that follow change nothing', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest(driveCutOff(vehicle.imei), undefined, at('06:10:00'));
    await checkQuietVehicles(at('07:10:00'));
    const before = { trips: await tripsOf(user), feed: await feedOf(user) };
    await checkQuietVehicles(at('07:11:00'));
    await checkQuietVehicles(at('09:00:00'));
    expect({ trips: await tripsOf(user), feed: await feedOf(user) }).toEqual(before);
  });

  it('lets re-detection carry on a closed trip when a later point continues the drive', async () => {
    // Prepare: the trip closed by the check
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const { records } = drive(vehicle.imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT);
    await ingest(records.slice(0, 20), undefined, at('06:10:00'));
    await checkQuietVehicles(at('07:10:00'));
    const closed = (await tripsOf(user))[0];
    // Act: the rest of the drive, buffered by the device, arrives
    await ingest(records.slice(20), undefined, at('07:30:00'));
    // Assess: one trip, to the client, and the early end retracted
    const trips = await tripsOf(user);
    expect(trips).toHaveLength(1);
    expect(trips[0].trip_uid).toBe(closed.trip_uid);
    expect(trips[0].stop_time).toBe(lastOf(records).slice(0, 19).replace('T', ' '));
    expect(Number(trips[0].distance)).toBeGreaterThan(Number(closed.distance));
    const feed = await feedOf(user);
    const voided = feed.filter((event) => event.type === 'event.voided').map((event) => event.data.voided_type);
    expect(voided).toEqual(['trip.completed']);
    expect(feed.filter((event) => event.type === 'trip.completed')).toHaveLength(2);
  });

  it('keeps the closed trip as it is when the next point comes after a silence longer than the gap rule', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest(driveCutOff(vehicle.imei), undefined, at('06:10:00'));
    await checkQuietVehicles(at('07:10:00'));
    const before = await tripsOf(user);
    // Act: parked elsewhere, hours later
    await ingest(
      [aPositionRecord(vehicle.imei, `${DAY}T10:00:00.000Z`, { latitude: CLIENT.lat, longitude: CLIENT.lng })],
      undefined,
      at('10:00:01'),
    );
    // Assess
    expect(await tripsOf(user)).toEqual(before);
    expect((await feedOf(user)).filter((event) => event.type === 'event.voided')).toEqual([]);
  });
});

describe('device.offline and device.online', () => {
  it('declares a vehicle offline once no point was taken for 1800 s, at the last point taken plus 1800 s, once', async () => {
    // Prepare: the device's clock is 20 minutes behind; the service took its point at 08:00:30
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T07:40:00.000Z`)], undefined, at('08:00:30'));
    // Act
    await checkQuietVehicles(at('08:30:29'));
    const early = await feedOf(user);
    await checkQuietVehicles(at('08:31:00'));
    await checkQuietVehicles(at('08:32:00'));
    // Assess
    expect(early).toEqual([]);
    const feed = await feedOf(user);
    expect(feed).toHaveLength(1);
    expect(feed[0]).toMatchObject({
      type: 'device.offline',
      event_id: expect.stringMatching(/^evt_/),
      data: {
        vehicle_uid: vehicle.vehicleUid,
        occurred_at: `${DAY} 08:30:30`,
        last_response: `${DAY} 08:00:30`,
        latitude: DEPOT.lat,
        longitude: DEPOT.lng,
        sequence: 1,
      },
    });
  });

  it('says the vehicle is back with device.online and the silence in gap_s on its next accepted point', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T08:00:00.000Z`)], undefined, at('08:00:00'));
    await checkQuietVehicles(at('08:31:00'));
    // Act
    await ingest(
      [aPositionRecord(vehicle.imei, `${DAY}T09:15:00.000Z`, { latitude: CLIENT.lat, longitude: CLIENT.lng })],
      undefined,
      at('09:15:10'),
    );
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T09:16:00.000Z`)], undefined, at('09:16:00'));
    // Assess
    const feed = await feedOf(user);
    expect(feed.map((event) => event.type)).toEqual(['device.offline', 'device.online']);
    expect(feed[1]?.data).toMatchObject({ occurred_at: `${DAY} 09:15:10`, gap_s: 4510, latitude: CLIENT.lat, sequence: 2 });
  });

  it('goes offline again after the next silence, and not for a replayed batch that brings nothing new', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const first = [aPositionRecord(vehicle.imei, `${DAY}T08:00:00.000Z`)];
    await ingest(first, 'quiet-replay', at('08:00:00'));
    await checkQuietVehicles(at('08:31:00'));
    // Act: the same batch again, then a new point and a new silence
    await ingest(first, 'quiet-replay', at('08:40:00'));
    const afterReplay = await factsOf(user);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T09:00:00.000Z`)], undefined, at('09:00:00'));
    await checkQuietVehicles(at('09:30:00'));
    // Assess
    expect(afterReplay).toEqual([`${DAY} 08:30:00 device.offline`]);
    expect(await factsOf(user)).toEqual([
      `${DAY} 08:30:00 device.offline`,
      `${DAY} 09:00:00 device.online`,
      `${DAY} 09:30:00 device.offline`,
    ]);
  });

  it("follows the vehicle's own offlineAfterS setting", async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await setVehicleDetection(vehicle.vehicleUid, { offlineAfterS: 300 });
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T08:00:00.000Z`)], undefined, at('08:00:00'));
    await checkQuietVehicles(at('08:05:00'));
    expect(await factsOf(user)).toEqual([`${DAY} 08:05:00 device.offline`]);
  });
});

describe('a changed setting and the silence in progress', () => {
  /** A vehicle whose point was taken at 08:00:00 and that a check at 08:01 has set to be looked at again at 08:30. */
  async function givenSilentSince0800() {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T08:00:00.000Z`)], undefined, at('08:00:00'));
    await checkQuietVehicles(at('08:01:00'));
    expect((await findTrackedVehiclesByUid([vehicle.vehicleUid])).get(vehicle.imei)?.quiet.due).toBe(at('08:30:00').toISOString());
    return { user, vehicle };
  }

  it('declares the vehicle offline by a lowered offlineAfterS at the next check, not at the old due time', async () => {
    // Prepare
    const { user, vehicle } = await givenSilentSince0800();
    // Act
    await setVehicleDetection(vehicle.vehicleUid, { offlineAfterS: 300 });
    await checkQuietVehicles(at('08:05:00'));
    // Assess
    expect(await factsOf(user)).toEqual([`${DAY} 08:05:00 device.offline`]);
  });

  it('declares it offline from the silence start plus the new threshold when that has already passed', async () => {
    const { user, vehicle } = await givenSilentSince0800();
    await checkQuietVehicles(at('08:20:00'));
    await setVehicleDetection(vehicle.vehicleUid, { offlineAfterS: 600 });
    await checkQuietVehicles(at('08:21:00'));
    expect(await factsOf(user)).toEqual([`${DAY} 08:10:00 device.offline`]);
  });

  it('waits for a raised offlineAfterS', async () => {
    // Prepare
    const { user, vehicle } = await givenSilentSince0800();
    // Act
    await setVehicleDetection(vehicle.vehicleUid, { offlineAfterS: 3000 });
    await checkQuietVehicles(at('08:30:00'));
    const atOldDue = await factsOf(user);
    await checkQuietVehicles(at('08:50:00'));
    // Assess
    expect(atOldDue).toEqual([]);
    expect(await factsOf(user)).toEqual([`${DAY} 08:50:00 device.offline`]);
  });

  it('closes an open trip by a lowered maxGapS at the next check', async () => {
    // Prepare: taken at 06:10, its trip open; the gap rule would close it at 07:10
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest(driveCutOff(vehicle.imei), undefined, at('06:10:00'));
    await checkQuietVehicles(at('06:11:00'));
    // Act
    await setVehicleDetection(vehicle.vehicleUid, { maxGapS: 900 });
    await checkQuietVehicles(at('06:25:00'));
    // Assess
    expect(await tripsOf(user)).toHaveLength(1);
  });

  it('keeps the due time a settings change set when a check that read the old settings reschedules meanwhile', async () => {
    // Prepare: the check has read the vehicle (due 08:30 by the default 1800 s)
    const { user, vehicle } = await givenSilentSince0800();
    const seen = (await findTrackedVehiclesByUid([vehicle.vehicleUid])).get(vehicle.imei)?.quiet;
    await setVehicleDetection(vehicle.vehicleUid, { offlineAfterS: 300 });
    // Act: its reschedule, worked out from the old settings, lands after the change
    const rescheduled = await rescheduleQuietCheck(
      vehicle.vehicleUid,
      { takenAt: String(seen?.takenAt), due: seen?.due ?? null },
      at('08:30:00').toISOString(),
      false,
    );
    await checkQuietVehicles(at('08:05:00'));
    // Assess
    expect(rescheduled).toBe(false);
    expect(await factsOf(user)).toEqual([`${DAY} 08:05:00 device.offline`]);
  });
});
