/**
 * What the processor keeps of a vehicle's history between its batches (shared/pipeline/kept-reads.ts): an in-order
 * batch after the first reads neither the checkpoint nor the history, and finds what a processor that read them finds;
 * another writer's revision, or a late point, makes the next batch read the table again.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { forgetReads } from '../../shared/pipeline/kept-reads.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { type Key, keys } from '../../shared/store/keys.ts';
import { findCheckpoint } from '../../shared/store/positions.ts';
import { findTrackedVehicles } from '../../shared/store/tracks.ts';
import { listTrips } from '../../shared/store/trips.ts';
import { anImei, givenUser, givenVehicle } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest, type PositionRecordInput, parked } from '../support/position-builders.ts';

const COUNTER = 'testHistoryQueries';
afterEach(() => void dynamo().middlewareStack.remove(COUNTER));

/** Counts the Queries of the vehicles' checkpoints and history chunks. */
function historyQueries(vehicle: Vehicle): () => number {
  const partitions = new Set([`VEHICLE#${vehicle.vehicleUid}#POSITIONS`, `VEHICLE#${vehicle.vehicleUid}#CHECKPOINTS`]);
  let count = 0;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const values = Object.values((args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues ?? {});
      const named = values.map((value) => (typeof value === 'object' && value !== null && 'S' in value ? value.S : value));
      if (context.commandName === 'QueryCommand' && named.some((value) => partitions.has(String(value)))) count++;
      return next(args);
    },
    { step: 'initialize', name: COUNTER },
  );
  return () => count;
}

/** A drive across an hour, then parked: one record a batch, each received a second after its fix. */
function aDriveAcrossAnHour(imei: string): PositionRecordInput[] {
  const { records, stopTime } = drive(imei, '2026-11-05T06:45:00Z', 30, DEPOT, CLIENT);
  return [...records, ...parked(imei, new Date(Date.parse(stopTime) + 60_000).toISOString(), 20, CLIENT)];
}

const arrivingAlone = (record: PositionRecordInput) => ingest([record], undefined, new Date(Date.parse(record.gps_datetime) + 1000));

async function givenAVehicle(): Promise<Vehicle> {
  return givenVehicle(await givenUser(), { imei: await anImei() });
}

describe('what the pipeline keeps of a vehicle between its batches', () => {
  it('reads the history once for in-order batches and finds what reading it every batch finds', async () => {
    // Prepare
    const [kept, read] = await Promise.all([givenAVehicle(), givenAVehicle()]);
    const queries = historyQueries(kept);

    // Act
    for (const record of aDriveAcrossAnHour(kept.imei)) await arrivingAlone(record);
    for (const record of aDriveAcrossAnHour(read.imei)) {
      forgetReads(read.vehicleUid);
      await arrivingAlone(record);
    }

    // Assess
    expect(queries()).toBe(2);
    const keptTrips = await listTrips(kept.vehicleUid, '2026', '9999');
    const readTrips = await listTrips(read.vehicleUid, '2026', '9999');
    expect(keptTrips).toHaveLength(1);
    expect(keptTrips.map(({ tripUid: _uid, vehicleUid: _vehicle, ...trip }) => trip)).toEqual(
      readTrips.map(({ tripUid: _uid, vehicleUid: _vehicle, ...trip }) => trip),
    );
    const [keptTrack, readTrack] = await Promise.all(
      [kept, read].map(async (vehicle) => (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei)),
    );
    expect(keptTrack?.live?.odometerKm).toBe(readTrack?.live?.odometerKm);
    expect((await findCheckpoint(kept.vehicleUid, '2026-11-05T07'))?.state).toEqual(
      (await findCheckpoint(read.vehicleUid, '2026-11-05T07'))?.state,
    );
  });

  it('reads the history again after another writer moved the revision', async () => {
    // Prepare
    const vehicle = await givenAVehicle();
    const [first, second, third] = aDriveAcrossAnHour(vehicle.imei) as [PositionRecordInput, PositionRecordInput, PositionRecordInput];
    const queries = historyQueries(vehicle);
    await arrivingAlone(first);
    await arrivingAlone(second);
    const before = queries();
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.trackState(vehicle.vehicleUid),
        UpdateExpression: 'SET revision = revision + :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );

    // Act
    await arrivingAlone(third);

    // Assess
    expect(before).toBe(2);
    expect(queries()).toBe(4);
  });

  it('reads the history again for a point before the newest one stored', async () => {
    // Prepare
    const vehicle = await givenAVehicle();
    const [first, second, third] = aDriveAcrossAnHour(vehicle.imei) as [PositionRecordInput, PositionRecordInput, PositionRecordInput];
    const queries = historyQueries(vehicle);
    await arrivingAlone(first);
    await arrivingAlone(third);

    // Act
    await ingest([second], undefined, new Date(Date.parse(third.gps_datetime) + 2000));

    // Assess
    expect(queries()).toBe(4);
  });

  it("takes an IMEI's points to the vehicle its claim names now, after a batch of the vehicle that had it", async () => {
    // Prepare
    const [former, current] = await Promise.all([givenAVehicle(), givenAVehicle()]);
    const [first, second] = aDriveAcrossAnHour(former.imei) as [PositionRecordInput, PositionRecordInput];
    await arrivingAlone(first);
    const moved = former.imei;
    const set = (key: Key, attribute: string, value: unknown) =>
      dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `SET ${attribute} = :value`,
          ExpressionAttributeValues: { ':value': value },
        }),
      );
    await set(keys.vehicle(former.vehicleUid), 'imei', await anImei());
    await set(keys.vehicle(current.vehicleUid), 'imei', moved);
    await set(keys.imeiClaim(moved), 'vehicle_uid', current.vehicleUid);

    // Act
    await arrivingAlone(second);

    // Assess
    const tracked = await findTrackedVehicles([moved]);
    expect(tracked.get(moved)?.vehicle.vehicleUid).toBe(current.vehicleUid);
    expect(tracked.get(moved)?.live?.gpsDatetime).toBe(new Date(second.gps_datetime).toISOString());
  });
});
