/**
 * History as it was told, through the API and the pipeline (DynamoDB Local): editing or deleting a zone changes its
 * events from then on; the events already emitted stay as they were, though the next batch walks its hour again
 * with the zone as it is now, and late points walk theirs.
 */
import { describe, expect, it } from 'vitest';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import type { LatLng } from '../../shared/domain/geo.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { aPositionRecord, CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const HALFWAY: LatLng = { lat: (DEPOT.lat + CLIENT.lat) / 2, lng: (DEPOT.lng + CLIENT.lng) / 2 };
const START = '2026-11-06T06:00:00.000Z';
/** the 20-minute drive's first fix in the 500 m around the halfway point, and the next: the first batch ends there */
const FIRST_BATCH_BEFORE = '2026-11-06T06:10:30.000Z';

async function givenDriveThroughZone() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  const zone = await givenUserLocation(user, { description: 'Halfway', latitude: HALFWAY.lat, longitude: HALFWAY.lng, radius: 0.5 });
  const { records } = drive(vehicle.imei, START, 20, DEPOT, CLIENT);
  return { user, vehicle, zone, records };
}

async function feedOf(user: TestUser): Promise<FleetEvent[]> {
  const feed = await api.get('getEvents', { api_key: user.key, since: '2000-01-01 00:00:00', limit: 1000 });
  return (feed.body.events as FleetEvent[]).filter((event) => !event.type.startsWith('trip.'));
}

const told = (events: FleetEvent[]) =>
  events.map(({ type, data }) => `${type} ${data.description ?? data.voided_type} speed=${data.speed} only_push=${data.only_push}`);

describe('a zone edited while the vehicle is in it', () => {
  it.each<[string, Record<string, unknown> | undefined, string[]]>([
    [
      'renamed',
      { description: 'Renamed' },
      ['geofence.entered Halfway speed=0 only_push=0', 'geofence.exited Renamed speed=0 only_push=0'],
    ],
    ['made a no-go zone', { no_go: 1 }, ['geofence.entered Halfway speed=0 only_push=0', 'no_go.exited Halfway speed=0 only_push=0']],
    ['made push-only', { only_push: 1 }, ['geofence.entered Halfway speed=0 only_push=0', 'geofence.exited Halfway speed=0 only_push=1']],
    [
      'given a speed limit below the vehicle’s speed',
      { speed: 10 },
      [
        'geofence.entered Halfway speed=0 only_push=0',
        'speeding.started undefined speed=undefined only_push=undefined',
        'geofence.exited Halfway speed=10 only_push=0',
        'speeding.ended undefined speed=undefined only_push=undefined',
      ],
    ],
    [
      'moved away',
      { latitude: HALFWAY.lat + 0.05 },
      ['geofence.entered Halfway speed=0 only_push=0', 'geofence.exited Halfway speed=0 only_push=0'],
    ],
    ['deleted', undefined, ['geofence.entered Halfway speed=0 only_push=0']],
  ])('keeps the entered as told when %s, and tells the rest as the zone is now', async (_edit, changes, expected) => {
    // Prepare
    const { user, zone, records } = await givenDriveThroughZone();
    await ingest(records.filter((record) => record.gps_datetime < FIRST_BATCH_BEFORE));
    const entered = await feedOf(user);
    // Act
    const edit = changes
      ? await api.post('editUserLocation', { api_key: user.key, user_location_uid: zone.userLocationUid, ...changes })
      : await api.post('deleteUserLocation', { api_key: user.key, user_location_uid: zone.userLocationUid });
    await ingest(records.filter((record) => record.gps_datetime >= FIRST_BATCH_BEFORE));
    // Assess
    expect(edit.status).toBe(200);
    const events = await feedOf(user);
    expect(told(entered)).toEqual(['geofence.entered Halfway speed=0 only_push=0']);
    expect(events[0]).toEqual(entered[0]);
    expect(told(events)).toEqual(expected);
  });

  it('ends the stay of a zone moved away at the first point walked again beyond it', async () => {
    // Prepare
    const { user, zone, records } = await givenDriveThroughZone();
    await ingest(records.filter((record) => record.gps_datetime < FIRST_BATCH_BEFORE));
    // Act
    await api.post('editUserLocation', { api_key: user.key, user_location_uid: zone.userLocationUid, latitude: HALFWAY.lat + 0.05 });
    await ingest(records.filter((record) => record.gps_datetime >= FIRST_BATCH_BEFORE));
    // Assess: the entered was decided at the batch's last fix; its next point is the first judged against the moved zone
    const [entered, exited] = await feedOf(user);
    expect([entered?.data.occurred_at, exited?.data.occurred_at]).toEqual(['2026-11-06 06:10:00', '2026-11-06 06:10:30']);
  });
});

describe('a zone edited after the vehicle left it', () => {
  it('keeps its events as told through a later batch of the same hour and late points inside the visit', async () => {
    // Prepare
    const { user, vehicle, zone, records } = await givenDriveThroughZone();
    await ingest(records);
    const before = await feedOf(user);
    // Act: renamed and shrunk; then a late fix inside the visit, and the vehicle parked at the client in the same hour
    await api.post('editUserLocation', { api_key: user.key, user_location_uid: zone.userLocationUid, description: 'Renamed', radius: 0.3 });
    await ingest([
      aPositionRecord(vehicle.imei, '2026-11-06T06:10:15.000Z', {
        latitude: HALFWAY.lat,
        longitude: HALFWAY.lng,
        speed: 32,
        ignition: true,
      }),
    ]);
    await ingest(parked(vehicle.imei, '2026-11-06T06:25:00.000Z', 5, CLIENT));
    // Assess
    expect(told(before)).toEqual(['geofence.entered Halfway speed=0 only_push=0', 'geofence.exited Halfway speed=0 only_push=0']);
    expect(await feedOf(user)).toEqual(before);
  });

  it('voids nothing when deleted', async () => {
    const { user, zone, records } = await givenDriveThroughZone();
    await ingest(records.slice(0, 30));
    const before = await feedOf(user);
    await api.post('deleteUserLocation', { api_key: user.key, user_location_uid: zone.userLocationUid });
    await ingest(records.slice(30));
    expect(before.map((event) => event.type)).toEqual(['geofence.entered', 'geofence.exited']);
    expect(await feedOf(user)).toEqual(before);
  });
});
