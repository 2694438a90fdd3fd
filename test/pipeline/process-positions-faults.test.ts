/** Faults DynamoDB Local cannot produce on demand, injected with aws-sdk-client-mock. */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { KinesisStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/processPositions/handler.ts';
import { lambdaContext } from '../../local/api-gateway-event.ts';
import { aPositionRecord } from '../support/position-builders.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);

const FAILING = { imei: '356000000000001', vehicleUid: 901 };
const HEALTHY = { imei: '356000000000002', vehicleUid: 902 };

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

beforeEach(() => {
  const vehicles = [FAILING, HEALTHY];
  dynamo.on(BatchGetCommand).callsFake(({ RequestItems }) => {
    const [table, { Keys }] = Object.entries(RequestItems as Record<string, { Keys: Array<{ pk: string; sk: string }> }>)[0]!;
    const items = Keys.flatMap((key) => {
      const vehicle = vehicles.find((v) => key.pk === `IMEI#${v.imei}` || key.pk === `VEHICLE#${v.vehicleUid}`);
      if (!vehicle || key.sk === 'TRACK') return [];
      return key.sk === 'IMEI'
        ? [{ ...key, vehicle_uid: vehicle.vehicleUid }]
        : [{ ...key, vehicle_uid: vehicle.vehicleUid, imei: vehicle.imei, name: 'V', fuel_factor: 1 }];
    });
    return { Responses: { [table]: items } };
  });
  // the failing vehicle's track item (its new points and live record) cannot be written
  dynamo.on(UpdateCommand).callsFake(({ Key }) => {
    if (Key.pk === `VEHICLE#${FAILING.vehicleUid}` && Key.sk === 'TRACK') {
      throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
    }
    return { Attributes: { value: 1 } };
  });
  dynamo.on(QueryCommand).resolves({ Items: [] });
  dynamo.on(PutCommand).resolves({});
  s3.on(PutObjectCommand).resolves({});
});

afterEach(() => {
  dynamo.reset();
  s3.reset();
});

describe('the processPositions handler', () => {
  it('reports the records of a vehicle whose writes failed as batch item failures, and only those', async () => {
    // Prepare
    const event = kinesisEvent([
      aPositionRecord(FAILING.imei, '2026-11-01T06:00:00Z'),
      aPositionRecord(HEALTHY.imei, '2026-11-01T06:00:00Z'),
      aPositionRecord(FAILING.imei, '2026-11-01T06:00:30Z'),
    ]);
    // Act
    const result = await handler(event, lambdaContext('processPositions', 'faults'));
    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'seq-0' }, { itemIdentifier: 'seq-2' }] });
    const tracksWritten = dynamo
      .commandCalls(UpdateCommand)
      .map((call) => call.args[0].input.Key)
      .filter((key) => key?.sk === 'TRACK');
    expect(tracksWritten).toEqual(
      expect.arrayContaining([
        { pk: `VEHICLE#${HEALTHY.vehicleUid}`, sk: 'TRACK' },
        { pk: `VEHICLE#${FAILING.vehicleUid}`, sk: 'TRACK' },
      ]),
    );
  });

  it('fails the whole batch when the archive cannot be written, so Lambda retries it', async () => {
    s3.on(PutObjectCommand).rejects(new Error('S3 unavailable'));
    await expect(
      handler(kinesisEvent([aPositionRecord(HEALTHY.imei, '2026-11-01T06:00:00Z')]), lambdaContext('processPositions', 'faults')),
    ).rejects.toThrow('S3 unavailable');
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
