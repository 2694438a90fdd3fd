import { randomUUID } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { archiveDay } from '../../shared/pipeline/process-positions.ts';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { api } from '../support/api.ts';
import { anImei, givenUser, givenVehicle } from '../support/builders.ts';
import { anOperator } from '../support/operators-builders.ts';
import { aPositionRecord, CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';
import { givenPolygonLocation, givenUserLocation } from '../support/user-locations-builders.ts';

const DAY = '2026-11-03';
const tripsOf = async (key: string) => (await api.get('getTrips', { api_key: key, start_date: DAY, end_date: DAY })).body.vehicles[0].trips;

describe('processPositions', () => {
  it('turns an ignition cycle into a trip with named places, the driver, odometer and fuel', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { odometerAtStart: 5000, fuelFactor: 1 });
    await givenPolygonLocation(user, { description: 'Depot yard' });
    await givenUserLocation(user, { description: 'Client Sandton', latitude: CLIENT.lat, longitude: CLIENT.lng, radius: 0.5 });
    const tag = String(anOperator().tag_id);
    await api.post('addOperator', { ...anOperator({ tag_id: tag, fullname: 'Anele Dlamini' }), api_key: user.key });
    const trip = drive(vehicle.imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT, { driver_tag_id: tag, fuel_raw: 60 });
    // Act
    const outcome = await ingest([...parked(vehicle.imei, `${DAY}T05:30:00.000Z`, 29, DEPOT, { fuel_raw: 60 }), ...trip.records]);
    // Assess
    expect(outcome).toMatchObject({ records: 29 + trip.records.length, rejected: [], trips: 1, failedIds: [] });
    const [recorded] = await tripsOf(user.key);
    expect(recorded).toMatchObject({
      start_time: `${DAY} 06:00:00`,
      stop_time: trip.stopTime.slice(0, 19).replace('T', ' '),
      start_odo: 5000,
      start_location: 'Depot yard',
      stop_location: 'Client Sandton',
      driver_name: 'Anele Dlamini',
      driver_tag_id: tag,
      fuel_start: '60.0',
      fuel_end: '60.0',
    });
    expect(Number(recorded.distance)).toBeCloseTo(trip.distanceKm, 1);
  });

  it('keeps the live record, curent_odo and fuel of the newest position', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { odometerAtStart: 100, fuelFactor: 2, fuelCapacity: 200 });
    const trip = drive(vehicle.imei, `${DAY}T08:00:00.000Z`, 10, DEPOT, CLIENT, { fuel_raw: 40 });
    // Act
    await ingest(trip.records);
    // Assess
    const live = (await api.get('getLiveData', { api_key: user.key })).body.vehicles[0];
    const vehicles = (await api.get('getVehicles', { api_key: user.key })).body.vehicles[0];
    expect(live).toMatchObject({
      gps_datetime: trip.stopTime.slice(0, 19).replace('T', ' '),
      latitude: String(CLIENT.lat),
      fuel_value: '80',
      fuel_percent: '40',
    });
    expect(Number(vehicles.curent_odo)).toBeCloseTo(100 + trip.distanceKm, 0);
  });

  it('creates nothing twice when the same batch is processed again', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const records = drive(vehicle.imei, `${DAY}T09:00:00.000Z`, 10, DEPOT, CLIENT).records;
    // Act
    const first = await ingest(records, 'replayed-batch');
    const again = await ingest(records, 'replayed-batch');
    // Assess
    expect(first.trips).toBe(1);
    expect(again).toMatchObject({ trips: 0, fills: 0, failedIds: [] });
    expect(await tripsOf(user.key)).toHaveLength(1);
  });

  it('never lets older, late points overwrite a newer live record', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T12:00:00.000Z`, { latitude: CLIENT.lat, longitude: CLIENT.lng })]);
    await ingest([aPositionRecord(vehicle.imei, `${DAY}T11:00:00.000Z`, { latitude: DEPOT.lat, longitude: DEPOT.lng })]);
    const live = (await api.get('getLiveData', { api_key: user.key })).body.vehicles[0];
    expect(live).toMatchObject({ gps_datetime: `${DAY} 12:00:00`, latitude: String(CLIENT.lat) });
  });

  it('sets poison records aside with their reasons and processes the rest of the batch', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const unknownImei = await anImei();
    const batchName = `poison-${randomUUID()}`;
    const good = parked(vehicle.imei, `${DAY}T13:00:00.000Z`, 3, DEPOT);
    // Act
    const outcome = await ingest(
      [
        good[0]!,
        '{"imei": "123',
        { imei: vehicle.imei, gps_datetime: 'yesterday' } as never,
        good[1]!,
        aPositionRecord(unknownImei, `${DAY}T13:00:00.000Z`),
        good[2]!,
      ],
      batchName,
    );
    // Assess
    expect(outcome.accepted).toBe(3);
    expect(outcome.rejected).toEqual([
      { id: '2', reason: 'not valid JSON' },
      { id: '3', reason: expect.stringContaining('gps_datetime') },
      { id: '5', reason: `unknown imei ${unknownImei}` },
    ]);
    // Only this batch's folders: a listing of the whole prefix would read other files' archives as they are written.
    const keys: string[] = [];
    for (const folder of ['raw', 'dead-letter']) {
      const Prefix = `positions/${folder}/${archiveDay(Date.parse(DAY))}/${batchName}`;
      const listed = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix }));
      keys.push(...(listed.Contents ?? []).map((object) => object.Key as string));
    }
    expect(keys.sort()).toEqual([
      expect.stringMatching(/^positions\/dead-letter\/\d{4}\/\d{2}\/\d{2}\//),
      expect.stringMatching(/^positions\/raw\//),
    ]);
    const deadLetters = await (
      await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: keys.find((k) => k.includes('dead-letter')) }))
    ).Body?.transformToString();
    expect(
      deadLetters
        ?.trim()
        .split('\n')
        .map((line) => JSON.parse(line).reason),
    ).toEqual(outcome.rejected.map((r) => r.reason));
    expect((await api.get('getLiveData', { api_key: user.key })).body.vehicles[0].gps_datetime).toBe(`${DAY} 13:02:00`);
  });

  it('carries a trip across batches', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const { records } = drive(vehicle.imei, `${DAY}T15:00:00.000Z`, 20, DEPOT, CLIENT);
    await ingest(records.slice(0, 17));
    await ingest(records.slice(17));
    expect(await tripsOf(user.key)).toHaveLength(1);
  });
});
