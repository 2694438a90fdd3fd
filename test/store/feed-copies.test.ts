/**
 * Events stored in vehicles' partitions before feeds existed, moved into the users' feeds by `npm run admin -- events
 * migrate-feeds` under the tenant rule, and a vehicle's facts given to a user linked later (`vehicle link`): read back
 * through getEvents over real HTTP. Both may run again without appending an event twice.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { EVENT_RETENTION_S, type FleetEvent } from '../../shared/domain/events/event.ts';
import type { EventType } from '../../shared/domain/events/event-types.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { admin } from '../support/admin.ts';
import { callOperation } from '../support/api.ts';
import { aDecidedEvent, aFleetEvent, givenDecidedEvents, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

let sequence = 0;

/** An event as the version before feeds stored it: in the vehicle's partition, found by id through gsi1, `entity: 'event'`. */
async function givenStoredBeforeFeeds(vehicle: Vehicle, type: EventType, data: Record<string, unknown> = {}): Promise<FleetEvent> {
  const at = new Date(Date.now() - 3_600_000 + ++sequence * 1000);
  const base = aFleetEvent(vehicle, sequence, { type, at });
  const event = { ...base, data: { ...base.data, ...data } };
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.event(vehicle.vehicleUid, event.timestamp, event.data.sequence),
        gsi1pk: `EVENT#${event.event_id}`,
        gsi1sk: 'EVENT',
        entity: 'event',
        event: JSON.stringify(event),
        event_id: event.event_id,
        vehicle_uid: vehicle.vehicleUid,
        type: event.type,
        expires_at: Math.floor(at.getTime() / 1000) + EVENT_RETENTION_S,
      },
    }),
  );
  return event;
}

const feedOf = async (user: TestUser) => (await callOperation('getEvents', { api_key: user.key })).body.events;

describe('the feed migration (npm run admin -- events migrate-feeds)', () => {
  it("gives each user of a shared vehicle its vehicle facts and its own zones' facts, once however often it runs", async () => {
    // Prepare: a vehicle shared by two users, each with a zone on its route; events of every kind stored before feeds
    const [owner, partner] = [await givenUser(), await givenUser()];
    const [ownersZone, partnersZone] = [await givenUserLocation(owner), await givenUserLocation(partner)];
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    const trip = await givenStoredBeforeFeeds(vehicle, 'trip.completed');
    const ownerEntered = await givenStoredBeforeFeeds(vehicle, 'geofence.entered', { user_location_uid: ownersZone.userLocationUid });
    const partnerSpeeding = await givenStoredBeforeFeeds(vehicle, 'speeding.started', { user_location_uid: partnersZone.userLocationUid });
    const ownSpeedLimit = await givenStoredBeforeFeeds(vehicle, 'speeding.started', { user_location_uid: null });
    const ownerVoid = await givenStoredBeforeFeeds(vehicle, 'event.voided', {
      voided_event_id: ownerEntered.event_id,
      voided_type: 'geofence.entered',
    });
    // Act: the migration runs twice for each user
    for (let run = 0; run < 2; run++) {
      for (const user of [owner, partner]) expect((await admin('events', 'migrate-feeds', '--user', String(user.userUid))).code).toBe(0);
    }
    // Assess
    expect(await feedOf(owner)).toEqual([trip, ownerEntered, ownSpeedLimit, ownerVoid]);
    expect(await feedOf(partner)).toEqual([trip, partnerSpeeding, ownSpeedLimit]);
  });

  it('gives the one user of a vehicle every event, and leaves events its commits appended as they are', async () => {
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    const stored = await givenStoredBeforeFeeds(vehicle, 'geofence.entered', { user_location_uid: 999_999 });
    const [appended] = await givenDecidedEvents(vehicle, [aDecidedEvent('trip.started', '2026-11-01T06:00:00.000Z')]);
    const { json } = await admin('events', 'migrate-feeds', '--user', String(owner.userUid));
    expect(json).toEqual({ users: 1, vehicles: 1, events_copied: 1, events_skipped: 1 });
    expect(await feedOf(owner)).toEqual([appended, stored]);
  });
});

describe('vehicle link (npm run admin -- vehicle link)', () => {
  it("gives the user linked the vehicle's retained vehicle facts, never another user's zone facts, once", async () => {
    // Prepare: facts the owner's commits appended, and one stored before feeds
    const [owner, partner] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(owner);
    const before = await givenStoredBeforeFeeds(vehicle, 'fuel.filled');
    await givenStoredBeforeFeeds(vehicle, 'no_go.entered', { user_location_uid: 5 });
    const [trip, , offline] = await givenDecidedEvents(vehicle, [
      aDecidedEvent('trip.started', '2026-11-01T06:00:00.000Z'),
      aDecidedEvent('geofence.entered', '2026-11-01T06:01:00.000Z', { audience: owner.userUid, zone: 41 }),
      aDecidedEvent('device.offline', '2026-11-01T06:02:00.000Z'),
    ]);
    // Act
    const linked = await admin('vehicle', 'link', '--user', String(partner.userUid), '--vehicle', String(vehicle.vehicleUid));
    const [later] = await givenDecidedEvents(vehicle, [aDecidedEvent('trip.completed', '2026-11-01T06:30:00.000Z')]);
    const again = await admin('vehicle', 'link', '--user', String(partner.userUid), '--vehicle', String(vehicle.vehicleUid));
    // Assess: the event committed after the link reached the feed through its commit, and only so
    expect(linked.json).toMatchObject({ events_copied: 3 });
    expect(again.json).toMatchObject({ events_copied: 0 });
    expect(await feedOf(partner)).toEqual([before, trip, offline, later]);
  });
});
