/**
 * Zone and speeding facts of a vehicle linked to two users, each with zones on its route, through the whole pipeline
 * (DynamoDB Local): each zone fact, and speeding under a zone's limit, is stored for the zone's user alone; speeding
 * above the vehicle's own limit once, for every user. A checkpoint and fact items stored in the format before the
 * walk was per user are read as they were meant.
 */
import { describe, expect, it } from 'vitest';
import { eventIdOf, type FleetEvent } from '../../shared/domain/events/event.ts';
import type { ZoneState } from '../../shared/domain/events/zone-events.ts';
import type { LatLng } from '../../shared/domain/geo.ts';
import type { UserLocation } from '../../shared/domain/user-location.ts';
import { checkpointItem, findCheckpoint, putAll } from '../../shared/store/positions.ts';
import { linkVehicle, setVehicleDetection } from '../../shared/store/vehicles.ts';
import { listZoneFacts, zoneFactItem } from '../../shared/store/zone-facts.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';
import { legacyZoneFact, mergedZoneState } from '../support/zone-walk-builders.ts';

/** The point `share` of the way from the depot to the client. */
const along = (share: number): LatLng => ({
  lat: DEPOT.lat + share * (CLIENT.lat - DEPOT.lat),
  lng: DEPOT.lng + share * (CLIENT.lng - DEPOT.lng),
});
const zoneAt = (user: TestUser, description: string, place: LatLng, params: Record<string, number> = {}) =>
  givenUserLocation(user, { description, latitude: place.lat, longitude: place.lng, radius: 1, ...params });

/** Users A and B, each with zones on the 10.7 km drive from the depot to the client (about 32 km/h). */
async function givenTwoUsersWithZones() {
  const [a, b] = [await givenUser(), await givenUser()];
  const zones = [
    await zoneAt(a, 'A school', along(0.5), { speed: 20 }),
    await zoneAt(b, 'B yard', along(0.25), { no_go: 1 }),
    // the same place as A's school, B's own zone
    await zoneAt(b, 'B school', along(0.5)),
  ];
  const owner = new Map(zones.map((zone) => [zone.userLocationUid, zone.description.startsWith('A') ? a.userUid : b.userUid]));
  return { a, b, zones, owner };
}

/** A vehicle of A's, linked to B since. */
async function givenSharedVehicle(a: TestUser, b: TestUser) {
  const vehicle = await givenVehicle(a);
  await linkVehicle(b.userUid, vehicle.vehicleUid);
  return vehicle;
}

describe('the zone facts of a vehicle linked to two users', () => {
  it("are each stored for the zone's user alone, and speeding above the vehicle's own limit once for all", async () => {
    // Prepare
    const { a, b, zones, owner } = await givenTwoUsersWithZones();
    const vehicle = await givenSharedVehicle(a, b);
    await setVehicleDetection(vehicle.vehicleUid, { speedLimitKmh: 25 });
    const described = new Map(zones.map((zone) => [zone.userLocationUid, zone.description]));
    // Act
    await ingest(drive(vehicle.imei, '2026-11-06T06:00:00.000Z', 20, DEPOT, CLIENT).records);
    // Assess
    const facts = (await listZoneFacts(vehicle.vehicleUid, '2000')).map(({ event }) => ({
      type: event.type,
      zone: described.get(event.fields.user_location_uid as number) ?? 'vehicle',
      audience: event.audience,
      owner: owner.get(event.fields.user_location_uid as number),
    }));
    expect(facts.map(({ type, zone }) => `${type} ${zone}`).sort()).toEqual(
      [
        'no_go.entered B yard',
        'no_go.exited B yard',
        'geofence.entered A school',
        'geofence.exited A school',
        'geofence.entered B school',
        'geofence.exited B school',
        'speeding.started A school',
        'speeding.ended A school',
        'speeding.started vehicle',
        'speeding.ended vehicle',
      ].sort(),
    );
    for (const fact of facts) expect(fact.audience, `${fact.type} ${fact.zone}`).toBe(fact.owner);
  });
});

/** A drive across 06:00 through both users' zones at the middle, the hour's checkpoint written inside them. */
const acrossTheHour = (imei: string) => drive(imei, '2026-11-06T05:50:00.000Z', 20, DEPOT, CLIENT).records;
const FIRST_BATCH_BEFORE = '2026-11-06T06:02:00.000Z';

async function zoneEventsOf(user: TestUser, vehicleUid: number): Promise<FleetEvent[]> {
  const feed = await api.get('getEvents', { api_key: user.key, vehicle_uid: vehicleUid, since: '2000-01-01 00:00:00', limit: 1000 });
  return (feed.body.events as FleetEvent[]).filter((event) => !event.type.startsWith('trip.'));
}

/** What a feed tells of each event, without what differs between two vehicles. */
const told = (events: FleetEvent[], zones: UserLocation[]) =>
  events.map(({ type, data }) => ({
    type,
    occurred_at: data.occurred_at,
    zone: zones.find((zone) => zone.userLocationUid === data.user_location_uid)?.description,
    speed_kmh: data.speed_kmh,
    max_speed_kmh: data.max_speed_kmh,
  }));

describe('zone state and facts stored before the walk was per user', () => {
  it("are read as each zone's user's: the next batch emits what a vehicle stored today would, voiding nothing", async () => {
    // Prepare: two vehicles of the same two users; the first batch of one is left as the earlier format stores it
    const { a, b, zones, owner } = await givenTwoUsersWithZones();
    const [today, before] = [await givenSharedVehicle(a, b), await givenSharedVehicle(a, b)];
    const records = { today: acrossTheHour(today.imei), before: acrossTheHour(before.imei) };
    await ingest(records.today.filter((record) => record.gps_datetime < FIRST_BATCH_BEFORE));
    await ingest(records.before.filter((record) => record.gps_datetime < FIRST_BATCH_BEFORE));
    const checkpoint = await findCheckpoint(before.vehicleUid, '2026-11-06T06');
    const state = checkpoint?.zones as ZoneState;
    expect(Object.values(state.users).flatMap((user) => user.stays)).not.toEqual([]);
    await putAll([checkpointItem(before.vehicleUid, { ...(checkpoint as NonNullable<typeof checkpoint>), zones: mergedZoneState(state) })]);
    const stored = await listZoneFacts(before.vehicleUid, '2000');
    await putAll(stored.map((fact) => zoneFactItem(before.vehicleUid, legacyZoneFact(fact), eventIdOf(before.vehicleUid, fact.event))));
    // Act
    await ingest(records.today.filter((record) => record.gps_datetime >= FIRST_BATCH_BEFORE));
    await ingest(records.before.filter((record) => record.gps_datetime >= FIRST_BATCH_BEFORE));
    // Assess
    // each user's feed holds its own zones' facts and the vehicle's (docs/events.md, "Who sees an event"): both feeds
    const bothFeeds = async (vehicleUid: number) => [...(await zoneEventsOf(a, vehicleUid)), ...(await zoneEventsOf(b, vehicleUid))];
    const [todayEvents, beforeEvents] = [await bothFeeds(today.vehicleUid), await bothFeeds(before.vehicleUid)];
    expect(beforeEvents.map((event) => event.type)).not.toContain('event.voided');
    expect(told(beforeEvents, zones)).toEqual(told(todayEvents, zones));
    expect(beforeEvents.length).toBeGreaterThan(6);
    const exits = (await listZoneFacts(before.vehicleUid, FIRST_BATCH_BEFORE)).filter(({ event }) => event.type.endsWith('.exited'));
    // the schools, entered before the hour: one of A's, one of B's
    expect(exits.map(({ event }) => event.audience).sort()).toEqual([a.userUid, b.userUid].sort());
    for (const { event } of exits) expect(event.audience).toBe(owner.get(event.fields.user_location_uid as number));
  });
});
