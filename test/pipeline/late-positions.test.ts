/** Late, buffered and replayed positions through the pipeline: re-detection, stable identities, the lateness window. */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../../shared/config.ts';
import { initialTrackState } from '../../shared/domain/tracking/detector.ts';
import type { Vehicle } from '../../shared/domain/vehicle.ts';
import { ingestRecords } from '../../shared/pipeline/ingest.ts';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { addFillSlip } from '../../shared/store/expense-slips.ts';
import { keys } from '../../shared/store/keys.ts';
import { tableDefinition } from '../../shared/store/table-definition.ts';
import { demoFleetDay, interleave } from '../../simulator/index.ts';
import { api } from '../support/api.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';

const DAY = '2026-11-05';
const range = (user: TestUser) => ({ api_key: user.key, start_date: DAY, end_date: DAY });
const tripsOf = async (user: TestUser) => (await api.get('getTrips', range(user))).body.vehicles[0].trips;
const fillsOf = async (user: TestUser, vehicle: Vehicle) =>
  (await api.get('getFuelFillReport', { ...range(user), vehicle_uid: vehicle.vehicleUid })).body.fills;
const odometerOf = async (user: TestUser) => (await api.get('getVehicles', { api_key: user.key })).body.vehicles[0].curent_odo;

/** A day: a morning drive, parked, an afternoon drive back. */
function twoTrips(imei: string) {
  const morning = drive(imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT);
  const afternoon = drive(imei, `${DAY}T10:00:00.000Z`, 20, CLIENT, DEPOT);
  return { morning: morning.records, parked: parked(imei, `${DAY}T07:00:00.000Z`, 120, CLIENT, {}, 300), afternoon: afternoon.records };
}

/** Parked with the level at `before` litres, then `after` from `minutes` later (a fill while parked). */
const fillAt = (imei: string, start: string, before: number, after: number) => [
  ...parked(imei, start, 10, DEPOT, { fuel_raw: before }),
  ...parked(imei, new Date(Date.parse(start) + 600_000).toISOString(), 20, DEPOT, { fuel_raw: after }),
];

describe('late positions', () => {
  it('detects the trip of a dead zone delivered after newer data, keeping the later trip and its trip_uid', async () => {
    // Prepare: the afternoon arrives first
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { odometerAtStart: 1000 });
    const day = twoTrips(vehicle.imei);
    await ingest([...day.parked, ...day.afternoon]);
    const [afternoonFirst] = await tripsOf(user);
    // Act: the morning, buffered while out of coverage, newest first
    const outcome = await ingest([...day.morning].reverse());
    // Assess
    const trips = await tripsOf(user);
    expect(outcome).toMatchObject({ trips: 1, rejected: [], failedIds: [] });
    expect(trips.map((trip: { start_time: string }) => trip.start_time)).toEqual([`${DAY} 06:00:00`, `${DAY} 10:00:00`]);
    expect(trips[1].trip_uid).toBe(afternoonFirst.trip_uid);
    expect(trips[1].start_odo).toBeGreaterThan(afternoonFirst.start_odo);
  });

  it('ends with the odometer and live record of in-order delivery', async () => {
    // Prepare
    const user = await givenUser();
    const other = await givenUser();
    const late = await givenVehicle(user, { odometerAtStart: 1000 });
    const inOrder = await givenVehicle(other, { odometerAtStart: 1000 });
    const lateDay = twoTrips(late.imei);
    const orderedDay = twoTrips(inOrder.imei);
    // Act
    await ingest([...orderedDay.morning, ...orderedDay.parked, ...orderedDay.afternoon]);
    await ingest([...lateDay.parked, ...lateDay.afternoon]);
    await ingest(lateDay.morning);
    // Assess
    expect(await odometerOf(user)).toBe(await odometerOf(other));
    const live = (await api.get('getLiveData', { api_key: user.key })).body.vehicles[0];
    expect(live).toMatchObject({
      gps_datetime: lateDay.afternoon.at(-1)?.gps_datetime.slice(0, 19).replace('T', ' '),
      latitude: String(DEPOT.lat),
    });
  });

  it('changes nothing when a late batch is delivered again', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const day = twoTrips(vehicle.imei);
    await ingest(day.afternoon);
    await ingest(day.morning, 'late-morning');
    const before = await tripsOf(user);
    // Act
    const again = await ingest(day.morning, 'late-morning');
    // Assess
    expect(again).toMatchObject({ trips: 0, fills: 0, changed: 0, removed: 0, writeRequests: 0, failedIds: [] });
    expect(await tripsOf(user)).toEqual(before);
  });

  it('puts a position older than the window before its arrival in the dead-letter prefix as too late', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const receivedAt = Date.parse(`${DAY}T12:02:00.000Z`);
    const windowStart = receivedAt - config.lateWindowMs();
    const [inside, outside] = [windowStart + 60_000, windowStart - 60_000].map((at) => new Date(at).toISOString());
    const batchName = `too-late-${Date.now()}`;
    // Act: one minute inside the window before the arrival, one minute outside it
    const outcome = await ingest(
      [parked(vehicle.imei, inside as string, 1, DEPOT)[0]!, parked(vehicle.imei, outside as string, 1, DEPOT)[0]!],
      batchName,
      new Date(receivedAt),
    );
    // Assess
    expect(outcome).toMatchObject({ accepted: 1, tooLate: 1, rejected: [{ id: '2', reason: 'too late' }] });
    expect(await deadLetterLines(batchName)).toEqual([
      expect.objectContaining({ reason: 'too late', data: expect.stringContaining((outside as string).slice(0, 19)) }),
    ]);
  });

  it('puts a position dated after its arrival plus the tolerance in the dead-letter prefix as in the future', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const batchName = `future-${Date.now()}`;
    // Act: received at 12:00; ten minutes ahead is tolerated, eleven is not
    const outcome = await ingest(
      [parked(vehicle.imei, `${DAY}T12:10:00.000Z`, 1, DEPOT)[0]!, parked(vehicle.imei, `${DAY}T12:11:00.000Z`, 1, DEPOT)[0]!],
      batchName,
      new Date(`${DAY}T12:00:00.000Z`),
    );
    // Assess
    expect(outcome).toMatchObject({ accepted: 1, faults: { 'in the future': 1 }, rejected: [{ id: '2', reason: 'in the future' }] });
    expect(await deadLetterLines(batchName)).toEqual([
      expect.objectContaining({ reason: 'in the future', data: expect.stringContaining(`${DAY}T12:11:00`) }),
    ]);
  });
});

/** The dead-letter lines of one batch, parsed. */
async function deadLetterLines(batchName: string): Promise<unknown[]> {
  const listed = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: 'positions/dead-letter/' }));
  const key = (listed.Contents ?? []).map((object) => object.Key as string).find((name) => name.includes(batchName));
  const text = await (await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }))).Body?.transformToString();
  return (text ?? '')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('position history retention', () => {
  it("gives every history chunk and checkpoint the table's TTL attribute, the retention after its hour", async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const day = twoTrips(vehicle.imei);
    // Act
    await ingest([...day.morning, ...day.parked, ...day.afternoon]);
    // Assess
    const itemsUnder = async (pk: string) =>
      (
        await dynamo().send(
          new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
        )
      ).Items ?? [];
    const history = [
      ...(await itemsUnder(`VEHICLE#${vehicle.vehicleUid}#POSITIONS`)),
      ...(await itemsUnder(keys.checkpointRange(vehicle.vehicleUid, '9999').pk)),
    ];
    const retentionS = config.positionRetentionDays() * 86_400;
    const dayStartS = Date.parse(`${DAY}T00:00:00Z`) / 1000;
    expect(history.length).toBeGreaterThan(1);
    for (const item of history) {
      expect(item[tableDefinition.ttlAttribute]).toBeGreaterThanOrEqual(dayStartS + retentionS);
      expect(item[tableDefinition.ttlAttribute]).toBeLessThanOrEqual(dayStartS + 86_400 + retentionS);
    }
  });
});

describe('an earlier day simulated after a later one (npm run simulate -- --date)', () => {
  it("produces that day's trips and fills", async () => {
    // Prepare: the seed's day, then the day before it, as `npm run simulate` feeds them
    const user = await givenUser();
    const imeis = await Promise.all([anImei(), anImei(), anImei()]);
    const [later, earlier] = ['2026-11-09', '2026-11-08'].map((date) => demoFleetDay(date, imeis, 7));
    const vehicles = await Promise.all(
      (later ?? []).map(({ vehicle }) =>
        givenVehicle(user, {
          imei: vehicle.imei,
          fuelCapacity: vehicle.fuelCapacity,
          ...(vehicle.ignitionWired ? {} : { detection: { useIgnition: false } }),
        }),
      ),
    );
    await ingestRecords(
      interleave(later ?? []).map((record) => JSON.stringify(record)),
      `later-${user.userUid}`,
    );
    // Act
    const totals = await ingestRecords(
      interleave(earlier ?? []).map((record) => JSON.stringify(record)),
      `earlier-${user.userUid}`,
    );
    // Assess
    const truth = earlier ?? [];
    expect(totals).toMatchObject({
      rejected: 0,
      trips: truth.reduce((sum, day) => sum + day.truth.trips.length, 0),
      fills: truth.reduce((sum, day) => sum + day.truth.fills.length, 0),
    });
    const trips = (await api.get('getTrips', { api_key: user.key, start_date: '2026-11-08', end_date: '2026-11-08' })).body.vehicles;
    vehicles.forEach((vehicle, v) => {
      expect(trips.find((entry: { vehicle_uid: string }) => entry.vehicle_uid === String(vehicle.vehicleUid)).trip_cnt).toBe(
        truth[v]?.truth.trips.length,
      );
    });
  });
});

describe('fills re-detected', () => {
  it('keep their event_uid and slip when an earlier fill arrives late, and get their since-the-previous-fill figures', async () => {
    // Prepare: the afternoon fill arrives first and gets a slip
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelCapacity: 100 });
    const second = fillAt(vehicle.imei, `${DAY}T14:00:00.000Z`, 30, 90);
    await ingest(second);
    const [alone] = await fillsOf(user, vehicle);
    const slip = await addFillSlip({
      eventUid: alone.event_uid,
      vehicleUid: vehicle.vehicleUid,
      qty: '60.000',
      amount: '1320.00',
      slipNumber: 'F-9',
      eventDatetime: `${DAY} 14:10:00`,
    });
    // Act: the morning's fill and drive arrive late
    await ingest([
      ...fillAt(vehicle.imei, `${DAY}T08:00:00.000Z`, 20, 80),
      ...drive(vehicle.imei, `${DAY}T09:00:00.000Z`, 20, DEPOT, CLIENT).records,
      ...drive(vehicle.imei, `${DAY}T12:00:00.000Z`, 20, CLIENT, DEPOT).records,
    ]);
    // Assess
    const fills = await fillsOf(user, vehicle);
    expect(fills).toHaveLength(2);
    expect(fills[1]).toMatchObject({ event_uid: alone.event_uid, slip_uid: slip.slipUid, slip_number: 'F-9' });
    expect(alone.distance).toBeNull();
    expect(fills[1].distance).toBeGreaterThan(20);
    expect(fills[1].fuel_used).not.toBeNull();
  });

  it('removes a fill that late points show was no fill, but keeps one that has a slip', async () => {
    // Prepare: two vehicles whose level rose across a silence; one fill gets a slip
    const user = await givenUser();
    const withSlip = await givenVehicle(user, { fuelCapacity: 100 });
    const without = await givenVehicle(user, { fuelCapacity: 100 });
    const silence = (imei: string) => [
      ...parked(imei, `${DAY}T10:00:00.000Z`, 10, DEPOT, { fuel_raw: 20 }),
      ...parked(imei, `${DAY}T10:40:00.000Z`, 20, CLIENT, { fuel_raw: 60 }),
    ];
    await ingest([...silence(withSlip.imei), ...silence(without.imei)]);
    const [detected] = await fillsOf(user, withSlip);
    expect(await fillsOf(user, without)).toHaveLength(1);
    await addFillSlip({
      eventUid: detected.event_uid,
      vehicleUid: withSlip.vehicleUid,
      qty: '40.000',
      amount: '880.00',
      slipNumber: 'F-10',
      eventDatetime: `${DAY} 10:10:00`,
    });
    // Act: the silence was a drive (the level rose while moving: the sensor, not a pump)
    const drove = (imei: string) => drive(imei, `${DAY}T10:10:00.000Z`, 25, DEPOT, CLIENT, { fuel_raw: 60 }).records;
    const outcome = await ingest([...drove(withSlip.imei), ...drove(without.imei)]);
    // Assess
    expect(outcome).toMatchObject({ removed: 1, fillsKeptForSlip: 1, failedIds: [] });
    expect(await fillsOf(user, without)).toEqual([]);
    expect(await fillsOf(user, withSlip)).toEqual([expect.objectContaining({ event_uid: detected.event_uid, slip_number: 'F-10' })]);
  });
});

describe('a vehicle tracked before position history existed', () => {
  it('goes on from the detector state stored on its track item', async () => {
    // Prepare: the former pipeline left the GPS odometer at 5,432.1 km
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { odometerAtStart: 1000 });
    const legacy = { ...initialTrackState({ odometerAtStartKm: 5432.1, startHours: null, fuelCapacity: null, fuelFactor: 1 }) };
    await dynamo().send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.trackState(vehicle.vehicleUid), state: legacy, version: 3 } }),
    );
    // Act
    await ingest(drive(vehicle.imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT).records);
    // Assess
    expect((await tripsOf(user))[0].start_odo).toBe(5432.1);
  });
});
