/**
 * Faults DynamoDB Local and s3rver cannot produce on demand: the real table and bucket answer every call
 * (aws-sdk-client-mock's stubs call through), except the one write each case makes fail.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KinesisStreamEvent } from 'aws-lambda';
import { type AwsStub, mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/processPositions/handler.ts';
import { lambdaContext } from '../../local/api-gateway-event.ts';
import { s3 } from '../../shared/store/bucket.ts';
import { dynamo } from '../../shared/store/client.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { aPositionRecord } from '../support/position-builders.ts';

/** Each record reaches the stream a second after its device time, as a live device's do. */
const kinesisEvent = (records: Array<{ gps_datetime: string }>): KinesisStreamEvent => ({
  Records: records.map((record, i) => ({
    eventID: `shardId-000000000000:seq-${i}`,
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::123456789012:role/test',
    awsRegion: 'eu-west-1',
    eventSourceARN: 'arn:aws:kinesis:eu-west-1:123456789012:stream/positions',
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: 'x',
      sequenceNumber: `seq-${i}`,
      approximateArrivalTimestamp: Date.parse(record.gps_datetime) / 1000 + 1,
      data: Buffer.from(JSON.stringify(record)).toString('base64'),
    },
  })),
});

const throughputExceeded = () =>
  Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });

/** DynamoDB's refusal of a key or an item it cannot take: retrying it changes nothing. */
const validationError = () =>
  Object.assign(new Error('One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit'), {
    name: 'ValidationException',
    $fault: 'client',
  });

/** Every write that carries `marker` is refused as DynamoDB refuses what it cannot store; the others reach DynamoDB Local. */
function refuseWritesCarrying(marker: string): void {
  const realSend = Object.getPrototypeOf(dynamo()).send as (command: unknown) => Promise<unknown>;
  for (const Command of [PutCommand, UpdateCommand, BatchWriteCommand, TransactWriteCommand] as const) {
    table.on(Command as never).callsFake((input: object) => {
      if (JSON.stringify(input).includes(marker)) throw validationError();
      return realSend.call(dynamo(), new (Command as unknown as new (input: object) => object)(input));
    });
  }
}

/** The vehicle's positions of 1 November as getPositions answers them. */
const positionsOf = async (user: TestUser, vehicleUid: number): Promise<unknown[]> =>
  (
    await api.get('getPositions', {
      api_key: user.key,
      vehicle_uid: vehicleUid,
      start_datetime: '2026-11-01 00:00:00',
      end_datetime: '2026-11-01 23:59:59',
    })
  ).body.positions;

// The shared clients the handler uses in this process, with every call passed through to DynamoDB Local and s3rver.
let table: AwsStub<any, any, any>;
let bucket: AwsStub<any, any, any>;
beforeEach(() => {
  table = mockClient(dynamo());
  table.send.callThrough();
  bucket = mockClient(s3());
  bucket.send.callThrough();
});
afterEach(() => {
  table.restore();
  bucket.restore();
});

describe('the processPositions handler', () => {
  it('reports the records of a vehicle whose writes failed as batch item failures, and only those', async () => {
    // Prepare
    const user = await givenUser();
    const [failing, healthy] = [await givenVehicle(user), await givenVehicle(user)];
    // the failing vehicle's track item (its new points and live record) cannot be written
    table.on(UpdateCommand, { Key: { pk: `VEHICLE#${failing.vehicleUid}`, sk: 'TRACK' } }).rejects(throughputExceeded());
    const event = kinesisEvent([
      aPositionRecord(failing.imei, '2026-11-01T06:00:00Z'),
      aPositionRecord(healthy.imei, '2026-11-01T06:00:00Z'),
      aPositionRecord(failing.imei, '2026-11-01T06:00:30Z'),
    ]);
    // Act
    const result = await handler(event, lambdaContext('processPositions', 'faults'));
    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'seq-0' }, { itemIdentifier: 'seq-2' }] });
    expect(await positionsOf(user, healthy.vehicleUid)).toHaveLength(1);
    expect(await positionsOf(user, failing.vehicleUid)).toHaveLength(0);
  });

  it('commits a retried batch whose first attempt stored its points but not its track item, as if it had not failed', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await handler(kinesisEvent([aPositionRecord(vehicle.imei, '2026-11-01T06:00:00Z')]), lambdaContext('processPositions', 'faults'));
    // more points than the track item's tail holds: the first attempt moves them all into stored chunks
    const times = Array.from({ length: 12 }, (_, i) => new Date(Date.parse('2026-11-01T06:00:30Z') + i * 30_000).toISOString());
    const event = kinesisEvent(times.map((at) => aPositionRecord(vehicle.imei, at.replace('.000Z', 'Z'))));
    table.on(UpdateCommand, { Key: { pk: `VEHICLE#${vehicle.vehicleUid}`, sk: 'TRACK' } }).rejects(throughputExceeded());
    const failed = await handler(event, lambdaContext('processPositions', 'faults'));
    table.restore();
    // Act
    const retried = await handler(event, lambdaContext('processPositions', 'faults'));
    // Assess
    expect(failed.batchItemFailures).toHaveLength(12);
    expect(retried).toEqual({ batchItemFailures: [] });
    const live = await api.get('getLiveData', { api_key: user.key });
    expect(live.body.vehicles[0]).toMatchObject({ gps_datetime: '2026-11-01 06:06:00' });
    expect(await positionsOf(user, vehicle.vehicleUid)).toHaveLength(13);
  });

  it('fails the whole batch when the archive cannot be written, so Lambda retries it, having stored nothing', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    bucket.on(PutObjectCommand).rejects(new Error('S3 unavailable'));
    const event = kinesisEvent([aPositionRecord(vehicle.imei, '2026-11-01T06:00:00Z')]);
    // Act
    const run = handler(event, lambdaContext('processPositions', 'faults'));
    // Assess
    await expect(run).rejects.toThrow('S3 unavailable');
    expect(await positionsOf(user, vehicle.vehicleUid)).toHaveLength(0);
    const live = await api.get('getLiveData', { api_key: user.key });
    expect(live.body.vehicles[0]).toMatchObject({ vehicle_uid: String(vehicle.vehicleUid), last_response: null });
  });

  it('dead-letters the one record storage refuses for good, stores the vehicle’s others, and retries nothing', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    refuseWritesCarrying('REFUSED-BY-STORAGE');
    const event = kinesisEvent([
      aPositionRecord(vehicle.imei, '2026-11-01T06:00:00Z'),
      aPositionRecord(vehicle.imei, '2026-11-01T06:00:30Z', { device_type: 'REFUSED-BY-STORAGE' }),
      aPositionRecord(vehicle.imei, '2026-11-01T06:01:00Z'),
    ]);
    // Act
    const result = await handler(event, lambdaContext('processPositions', 'faults'));
    table.restore();
    const later = await handler(
      kinesisEvent([aPositionRecord(vehicle.imei, '2026-11-01T06:01:30Z')]),
      lambdaContext('processPositions', 'faults'),
    );
    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(later).toEqual({ batchItemFailures: [] });
    const stored = (await positionsOf(user, vehicle.vehicleUid)) as Array<{ gps_datetime: string }>;
    expect(stored.map((position) => position.gps_datetime)).toEqual(['2026-11-01 06:00:00', '2026-11-01 06:01:00', '2026-11-01 06:01:30']);
  });
});
