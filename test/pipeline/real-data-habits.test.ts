/**
 * Real data's habits through the pipeline (DynamoDB Local, the API): several fixes of one second, a fix of a second
 * already taken at another place (set aside as `same second`), old positions resent (ignored as `stale fix`), and fixes
 * thrown off the way (ignored as `outlier`).
 */
import { describe, expect, it } from 'vitest';
import { faultReport } from '../../shared/pipeline/fault-report.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';

const DAY = '2026-11-09';
const M_PER_DEG_LAT = 111_320;
const later = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

async function givenDrive(intervalS = 30) {
  const user = await givenUser();
  const vehicle = await givenVehicle(user, { detection: { useIgnition: false } });
  const before = parked(vehicle.imei, `${DAY}T07:30:00.000Z`, 30, DEPOT, { ignition: null });
  const trip = drive(vehicle.imei, `${DAY}T08:00:00.000Z`, 20, DEPOT, CLIENT, { ignition: null }, intervalS);
  const after = parked(vehicle.imei, later(trip.stopTime, 60_000), 10, CLIENT, { ignition: null });
  return { user, vehicle, records: [...before, ...trip.records, ...after], distanceKm: trip.distanceKm };
}

const tripsOf = async (key: string) => (await api.get('getTrips', { api_key: key, start_date: DAY, end_date: DAY })).body.vehicles[0].trips;

describe('several fixes of one second', () => {
  it('keeps the first, drops the same fix again, and sets aside one at another place, in a batch and against the history', async () => {
    // Prepare: the drive in two batches; each brings a fix 2 km off with the time of a fix already sent (a stuck
    // clock), and the second also the same fix again 300 ms later
    const { user, vehicle, records, distanceKm } = await givenDrive();
    const half = Math.floor(records.length / 2);
    const elsewhere = (n: number) => ({ ...records[n]!, latitude: (records[n]!.latitude as number) + 2000 / M_PER_DEG_LAT });
    const first = [...records.slice(0, half), elsewhere(half - 3)];
    const second = [
      ...records.slice(half),
      elsewhere(half - 10),
      { ...records[half + 2]!, gps_datetime: later(records[half + 2]!.gps_datetime, 300) },
    ];

    // Act
    const one = await ingest(first);
    const two = await ingest(second);

    // Assess
    expect(one.rejected).toEqual([{ id: String(first.length), reason: 'same second' }]);
    expect(two.rejected).toEqual([{ id: String(records.length - half + 1), reason: 'same second' }]);
    expect([one.faults['same second'], two.faults['same second']]).toEqual([1, 1]);
    const trips = await tripsOf(user.key);
    expect(trips).toHaveLength(1);
    expect(Math.abs(Number(trips[0].distance) - distanceKm) / distanceKm).toBeLessThanOrEqual(0.02);
    const report = await faultReport(vehicle.vehicleUid, `${DAY}T00:00:00.000Z`, `${DAY}T23:59:59.999Z`);
    expect(report?.['same second']).toMatchObject({ count: 2 });
  }, 60_000);
});

describe('old positions resent', () => {
  it('are ignored as stale fixes: they add no distance and split no trip', async () => {
    // Prepare: every fourth fix of the drive is sent again as the one a minute before, with its own time
    const { user, vehicle, records, distanceKm } = await givenDrive();
    const start = records.findIndex((record) => record.gps_datetime === `${DAY}T08:00:00.000Z`);
    const resent = records.map((record, n) =>
      n > start + 2 && n < start + 38 && n % 4 === 0
        ? { ...record, latitude: records[n - 2]!.latitude, longitude: records[n - 2]!.longitude }
        : record,
    );

    // Act
    const outcome = await ingest(resent);

    // Assess
    const trips = await tripsOf(user.key);
    expect(trips).toHaveLength(1);
    expect(Math.abs(Number(trips[0].distance) - distanceKm) / distanceKm).toBeLessThanOrEqual(0.02);
    expect(outcome.faults['stale fix']).toBeGreaterThanOrEqual(8);
    const report = await faultReport(vehicle.vehicleUid, `${DAY}T00:00:00.000Z`, `${DAY}T23:59:59.999Z`);
    expect(report?.['stale fix']?.count).toBe(outcome.faults['stale fix']);
  }, 60_000);
});

describe('fixes thrown off the way', () => {
  it('are ignored as outliers: they add no distance, and getPositions says why', async () => {
    // Prepare: a drive reported every 5 s; one fix in 20 thrown 200 m east (multipath), with the drive's speed
    const { user, vehicle, records, distanceKm } = await givenDrive(5);
    const start = records.findIndex((record) => record.gps_datetime === `${DAY}T08:00:00.000Z`);
    const isThrown = (n: number) => n > start + 5 && n < records.length - 20 && n % 20 === 0;
    const thrown = records.map((record, n) =>
      isThrown(n)
        ? { ...record, longitude: (record.longitude as number) + 200 / (M_PER_DEG_LAT * Math.cos((26 * Math.PI) / 180)) }
        : record,
    );

    // Act
    const outcome = await ingest(thrown);

    // Assess: counted out and back, each added 0.4 km
    const trips = await tripsOf(user.key);
    expect(trips).toHaveLength(1);
    expect(Math.abs(Number(trips[0].distance) - distanceKm) / distanceKm).toBeLessThanOrEqual(0.02);
    const count = records.filter((_, n) => isThrown(n)).length;
    expect(count).toBeGreaterThan(5);
    expect(outcome.faults.outlier).toBe(count);
    const report = await faultReport(vehicle.vehicleUid, `${DAY}T00:00:00.000Z`, `${DAY}T23:59:59.999Z`);
    expect(report?.outlier?.count).toBe(count);
    const answer = await api.get('getPositions', {
      api_key: user.key,
      vehicle_uid: vehicle.vehicleUid,
      start_datetime: `${DAY} 07:00:00`,
      end_datetime: `${DAY} 09:00:00`,
    });
    const ignored = answer.body.positions.filter((position: { ignored?: string }) => position.ignored);
    expect(ignored.map((position: { longitude: number; ignored: string }) => [position.longitude, position.ignored])).toEqual(
      thrown.filter((_, n) => isThrown(n)).map((record) => [Number((record.longitude as number).toFixed(7)), 'outlier']),
    );
  }, 60_000);
});
