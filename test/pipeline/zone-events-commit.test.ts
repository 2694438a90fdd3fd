/**
 * A commit DynamoDB Local cannot fail on demand: the real table answers every call (aws-sdk-client-mock calls
 * through), except the detection commit that carries the vehicle's zone facts, refused once.
 */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type AwsStub, mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { dynamo } from '../../shared/store/client.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const throughputExceeded = () =>
  Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });

let table: AwsStub<any, any, any>;
beforeEach(() => {
  table = mockClient(dynamo());
  table.send.callThrough();
});
afterEach(() => table.restore());

describe('zone events of a batch that failed half-way', () => {
  it.each([
    ['in order', false],
    ['late, after newer points', true],
  ])('are emitted by its retry, once, though the failed batch stored its points (%s)', async (_order, late) => {
    // Prepare: a zone halfway along a straight drive; the first commit that carries its facts is refused
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenUserLocation(user, {
      description: 'Halfway',
      latitude: (DEPOT.lat + CLIENT.lat) / 2,
      longitude: (DEPOT.lng + CLIENT.lng) / 2,
      radius: 0.5,
    });
    const realSend = Object.getPrototypeOf(dynamo()).send as (command: unknown) => Promise<unknown>;
    let refused = 0;
    table.on(TransactWriteCommand).callsFake((input: object) => {
      if (refused === 0 && JSON.stringify(input).includes(`VEHICLE#${vehicle.vehicleUid}#ZONEFACTS`)) {
        refused++;
        throw throughputExceeded();
      }
      return realSend.call(dynamo(), new TransactWriteCommand(input as never));
    });
    const zoneEvents = async () => {
      const feed = await api.get('getEvents', {
        api_key: user.key,
        since: '2000-01-01 00:00:00',
        types: 'geofence.entered,geofence.exited',
      });
      return (feed.body.events as FleetEvent[]).map((event) => event.type);
    };
    const { records } = drive(vehicle.imei, '2026-11-06T06:00:00.000Z', 20, DEPOT, CLIENT);
    const [throughZone, after] = [records.slice(0, 30), records.slice(30)];
    // Act: the batch through the zone fails after its history chunks were written and is retried; then the rest
    // of the drive arrives (or, late, had arrived before it and is replayed)
    if (late) await ingest(after);
    const failed = await ingest(throughZone);
    await ingest(throughZone);
    const afterRetry = await zoneEvents();
    await ingest(after);
    // Assess
    expect(failed.failedIds.length).toBeGreaterThan(0);
    expect(refused).toBe(1);
    expect(table.commandCalls(PutCommand).some((call) => JSON.stringify(call.args[0].input).includes('#POSITIONS'))).toBe(true);
    expect(afterRetry).toEqual(['geofence.entered', 'geofence.exited']);
    expect(await zoneEvents()).toEqual(afterRetry);
  });
});
