import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { aPositionRecord, CLIENT, DEPOT, drive, givenDenseHistory, ingest, parked } from '../support/position-builders.ts';

const positionsOf = (user: TestUser, params: Record<string, string | number | undefined>) =>
  callOperation('getPositions', { api_key: user.key, ...params });
const WHOLE_DAY = { start_datetime: '2026-11-04 00:00:00', end_datetime: '2026-11-04 23:59:59' };

describe('getPositions', () => {
  it('returns the stored positions oldest first, in GMT+0, with fuel_factor applied, whatever order they arrived in', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user, { fuelFactor: 2 });
    const tag = '01ABCDEF';
    const first = aPositionRecord(vehicle.imei, '2026-11-04T06:00:00.000Z', {
      latitude: CLIENT.lat,
      longitude: CLIENT.lng,
      speed: 42.5,
      heading: 90,
      ignition: true,
      odometer_km: 1234.5,
      fuel_raw: 30.5,
      driver_tag_id: tag,
      supp_volt: 13.9,
      int_batt_volt: 4.05,
      int_temp: 31,
      ext_temp: -2.5,
    });
    const second = aPositionRecord(vehicle.imei, '2026-11-04T07:30:00.000Z', { ignition: null, speed: null, fuel_raw: null });
    await ingest([second]);
    await ingest([first]);
    // Act
    const res = await positionsOf(user, { vehicle_uid: vehicle.vehicleUid, ...WHOLE_DAY });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toEqual({
      version: '1',
      result: 'success',
      error_msg: '',
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      start_datetime: WHOLE_DAY.start_datetime,
      end_datetime: WHOLE_DAY.end_datetime,
      cnt: 2,
      positions: [
        {
          gps_datetime: '2026-11-04 06:00:00',
          latitude: CLIENT.lat,
          longitude: CLIENT.lng,
          speed: 42.5,
          heading: 90,
          ignition: 1,
          fuel_value: 61,
          odometer: 1234.5,
          driver_id: tag,
          supp_volt: 13.9,
          int_batt_volt: 4.05,
          int_temp: 31,
          ext_temp: -2.5,
        },
        {
          gps_datetime: '2026-11-04 07:30:00',
          latitude: DEPOT.lat,
          longitude: DEPOT.lng,
          speed: null,
          heading: 0,
          ignition: null,
          fuel_value: null,
          odometer: null,
          driver_id: null,
          supp_volt: 13.8,
          int_batt_volt: 4.1,
          int_temp: 30,
          ext_temp: null,
        },
      ],
    });
  });

  it("reads the range in the user's offset, both ends included", async () => {
    // Prepare: 10:00 to 10:05 at GMT+2 is 08:00 to 08:05 GMT
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user);
    await ingest(parked(vehicle.imei, '2026-11-04T07:58:00.000Z', 9, DEPOT));
    // Act
    const res = await positionsOf(user, {
      vehicle_uid: vehicle.vehicleUid,
      start_datetime: '2026-11-04 10:00:00',
      end_datetime: '2026-11-04 10:05:00',
    });
    // Assess
    expect(res.body.positions.map((position: { gps_datetime: string }) => position.gps_datetime)).toEqual(
      ['08:00', '08:01', '08:02', '08:03', '08:04', '08:05'].map((time) => `2026-11-04 ${time}:00`),
    );
  });

  it('pages with limit and next_start_datetime until every position was read once', async () => {
    // Prepare: a trip and its parking around midnight, across two days
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const records = [
      ...parked(vehicle.imei, '2026-11-04T23:50:00.000Z', 10, DEPOT),
      ...drive(vehicle.imei, '2026-11-05T00:00:00.000Z', 10, DEPOT, CLIENT).records,
    ];
    await ingest(records);
    // Act
    const seen: string[] = [];
    let start: string | undefined = '2026-11-04 00:00:00';
    for (let page = 0; start !== undefined && page < 10; page++) {
      const res = await positionsOf(user, {
        vehicle_uid: vehicle.vehicleUid,
        start_datetime: start,
        end_datetime: '2026-11-05 23:59:59',
        limit: 7,
      });
      expect(res.body.cnt).toBe(res.body.positions.length);
      seen.push(...res.body.positions.map((position: { gps_datetime: string }) => position.gps_datetime));
      start = res.body.next_start_datetime;
    }
    // Assess
    expect(seen).toEqual(records.map((record) => record.gps_datetime.slice(0, 19).replace('T', ' ')));
  });

  it('answers an empty list for a range without positions', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const res = await positionsOf(user, { vehicle_uid: vehicle.vehicleUid, ...WHOLE_DAY });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, positions: [] });
    expect(res.body).not.toHaveProperty('next_start_datetime');
  });
});

describe('getPositions on a day denser than one DynamoDB page', () => {
  const DENSE_DAY = { start_datetime: '2026-11-06 00:00:00', end_datetime: '2026-11-06 23:59:59' };
  const timesOf = (body: { positions: Array<{ gps_datetime: string }> }) => body.positions.map((position) => position.gps_datetime);
  const asAnswered = (at: string) => at.slice(0, 19).replace('T', ' ');

  it('answers it in parts, by next_start_datetime and by cursor, that hold every position once and in order', async () => {
    // Prepare: two hours of 1 s reporting, about 1.4 MB of history
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const stored = (await givenDenseHistory(vehicle, '2026-11-06T08:00:00.000Z', 7_200)).map(asAnswered);
    // Act
    const byStart: string[][] = [];
    for (let start: string | undefined = DENSE_DAY.start_datetime; start !== undefined && byStart.length < 10; ) {
      const res = await positionsOf(user, { vehicle_uid: vehicle.vehicleUid, ...DENSE_DAY, start_datetime: start });
      expect(res).toBeSuccess();
      byStart.push(timesOf(res.body));
      start = res.body.next_start_datetime;
    }
    const byCursor: string[][] = [];
    for (let cursor: string | undefined, more = true; more && byCursor.length < 10; more = cursor !== undefined) {
      const res = await positionsOf(user, { vehicle_uid: vehicle.vehicleUid, ...DENSE_DAY, limit: 10_000, cursor });
      expect(res).toBeSuccess();
      byCursor.push(timesOf(res.body));
      cursor = res.body.next_cursor;
    }
    // Assess: the first answer stops short of the limit where its read ended, and the next goes on from there
    expect(byStart.length).toBeGreaterThan(1);
    expect(byStart[0]?.length).toBeLessThan(stored.length);
    expect(byStart.flat()).toEqual(stored);
    expect(byCursor.map((page) => page.length)).toEqual(byStart.map((page) => page.length));
    expect(byCursor.flat()).toEqual(stored);
  });
});

describe('getPositions over history that arrived late and interleaved', () => {
  it('walks it by cursor, a few positions a page, answering each once and in order', async () => {
    // Prepare: every other minute arrives first, the minutes between arrive later, so stored chunks overlap in time
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const records = Array.from({ length: 60 }, (_, i) =>
      aPositionRecord(vehicle.imei, new Date(Date.parse('2026-11-07T06:00:00.000Z') + i * 60_000).toISOString()),
    );
    await ingest(records.filter((_, i) => i % 2 === 0));
    await ingest(records.filter((_, i) => i % 2 === 1));
    // Act
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 30 && (page === 0 || cursor !== undefined); page++) {
      const res = await positionsOf(user, {
        vehicle_uid: vehicle.vehicleUid,
        start_datetime: '2026-11-07 00:00:00',
        end_datetime: '2026-11-07 23:59:59',
        limit: 7,
        cursor,
      });
      expect(res).toBeSuccess();
      seen.push(...res.body.positions.map((position: { gps_datetime: string }) => position.gps_datetime));
      cursor = res.body.next_cursor;
    }
    // Assess
    expect(seen).toEqual(records.map((record) => record.gps_datetime.slice(0, 19).replace('T', ' ')));
  });
});

describe('getPositions refuses', () => {
  it('a vehicle of another user', async () => {
    const owner = await givenUser();
    const other = await givenUser();
    const vehicle = await givenVehicle(owner);
    await ingest(parked(vehicle.imei, '2026-11-04T06:00:00.000Z', 2, DEPOT));
    expect(await positionsOf(other, { vehicle_uid: vehicle.vehicleUid, ...WHOLE_DAY })).toBeError(
      404,
      'vehicle not found or not linked to this api key',
    );
  });

  it('a missing or non-integer vehicle_uid', async () => {
    const user = await givenUser();
    for (const [, bad] of [...notIntegers, ['missing', undefined] as [string, undefined]]) {
      expect(await positionsOf(user, { vehicle_uid: bad, ...WHOLE_DAY })).toBeError(400, 'vehicle_uid is required and must be an integer');
    }
  });

  it.each([
    [{ start_datetime: undefined }, 'start_datetime is required (yyyy-mm-dd hh:mm:ss)'],
    [{ start_datetime: '2026-11-04T00:00:00' }, 'start_datetime is required (yyyy-mm-dd hh:mm:ss)'],
    [{ end_datetime: '2026-11-31 00:00:00' }, 'end_datetime is required (yyyy-mm-dd hh:mm:ss)'],
    [{ end_datetime: '2026-11-04 24:00:00' }, 'end_datetime is required (yyyy-mm-dd hh:mm:ss)'],
    [{ start_datetime: '2026-11-05 00:00:00' }, 'start_datetime may not be after end_datetime'],
    [{ start_datetime: '2026-10-28 23:59:58' }, 'datetime range may not exceed 7 days'],
    [{ limit: 0 }, 'limit must be an integer from 1 to 10000'],
    [{ limit: 10_001 }, 'limit must be an integer from 1 to 10000'],
    [{ limit: 'ten' }, 'limit must be an integer from 1 to 10000'],
  ])('%o with 400 %s', async (change, message) => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    expect(await positionsOf(user, { vehicle_uid: vehicle.vehicleUid, ...WHOLE_DAY, ...change })).toBeError(400, message);
  });

  it('nothing at exactly 7 days', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    expect(
      await positionsOf(user, {
        vehicle_uid: vehicle.vehicleUid,
        start_datetime: '2026-10-28 23:59:59',
        end_datetime: '2026-11-04 23:59:59',
      }),
    ).toBeSuccess();
  });
});
