/** `npm run admin -- vehicle settings` and `npm run admin -- faults`: the device-fault settings and report, as an operator runs them. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_SETTINGS, EVENT_SETTING_NAMES } from '../../shared/domain/events/settings.ts';
import { DEFAULT_DETECTION } from '../../shared/domain/tracking/settings.ts';
import { admin } from '../support/admin.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';

const DAY = '2026-11-07';
const M_PER_DEG_LAT = 111_320;

/** A drive whose middle point is `km` to the north of the road (a bad fix with nothing to say so). */
function driveWithAStrayFix(imei: string, km: number) {
  const { records, distanceKm } = drive(imei, `${DAY}T08:00:00.000Z`, 20, DEPOT, CLIENT);
  const middle = Math.floor(records.length / 2);
  const stray = records.map((record, n) =>
    n === middle ? { ...record, latitude: (record.latitude as number) + (km * 1000) / M_PER_DEG_LAT } : record,
  );
  return { records: stray, distanceKm };
}

describe('admin vehicle settings', () => {
  it("prints the vehicle's settings with their defaults, and changes and resets its own", async () => {
    // Prepare
    const vehicle = await givenVehicle(await givenUser(), { detection: { useIgnition: false } });
    const uid = String(vehicle.vehicleUid);
    // Act
    const shown = await admin('vehicle', 'settings', '--vehicle', uid);
    const changed = await admin('vehicle', 'settings', '--vehicle', uid, '--set', 'maxSpeedKmh=180, fuelDropoutSamples=3');
    const reset = await admin('vehicle', 'settings', '--vehicle', uid, '--reset', 'maxSpeedKmh');
    // Assess
    expect(shown).toEqual({
      code: 0,
      json: {
        vehicle_uid: vehicle.vehicleUid,
        settings: { ...DEFAULT_DETECTION, useIgnition: false, ...DEFAULT_EVENT_SETTINGS, fuelDropMinL: 9.6 },
        own: { useIgnition: false },
      },
    });
    expect(changed.json).toMatchObject({
      settings: { maxSpeedKmh: 180, fuelDropoutSamples: 3, futureToleranceS: 600 },
      own: { useIgnition: false, maxSpeedKmh: 180, fuelDropoutSamples: 3 },
    });
    expect(reset.json).toMatchObject({ settings: { maxSpeedKmh: 250 }, own: { useIgnition: false, fuelDropoutSamples: 3 } });
  });

  it('changes the event settings beside them: dwell and the own speed limit may be 0, the smallest drop follows the tank', async () => {
    // Prepare
    const vehicle = await givenVehicle(await givenUser(), { fuelCapacity: 400 });
    const uid = String(vehicle.vehicleUid);
    // Act
    const changed = await admin(
      'vehicle',
      'settings',
      '--vehicle',
      uid,
      '--set',
      'dwell=90,speedingMinS=20,speedLimitKmh=80,fuelDropMinL=15.5,fuelDropWindowS=600,offlineAfterS=3600',
    );
    const zeroed = await admin('vehicle', 'settings', '--vehicle', uid, '--set', 'dwell=0,speedLimitKmh=0', '--reset', 'fuelDropMinL');
    const shownAgain = await admin('vehicle', 'settings', '--vehicle', uid);
    // Assess
    expect(changed).toMatchObject({
      code: 0,
      json: {
        settings: { dwell: 90, speedingMinS: 20, speedLimitKmh: 80, fuelDropMinL: 15.5, fuelDropWindowS: 600, offlineAfterS: 3600 },
      },
    });
    expect(zeroed.json).toMatchObject({
      settings: { dwell: 0, speedLimitKmh: 0, fuelDropMinL: 32, speedingMinS: 20 },
      own: { dwell: 0, speedingMinS: 20, speedLimitKmh: 0, fuelDropWindowS: 600, offlineAfterS: 3600 },
    });
    expect(zeroed.json.own).not.toHaveProperty('fuelDropMinL');
    expect(shownAgain.json).toEqual(zeroed.json);
  });

  it.each([
    [['--set', 'maxSpeedKmh=180'], '--vehicle is required'],
    [
      ['--vehicle', '1', '--set', 'warpSpeed=9'],
      `--set: unknown setting warpSpeed; one of: ${[...Object.keys(DEFAULT_DETECTION), ...EVENT_SETTING_NAMES].join(', ')}`,
    ],
    [['--vehicle', '1', '--set', 'speedingMinS=0'], '--set speedingMinS must be a number above 0'],
    [['--vehicle', '1', '--set', 'fuelDropMinL=-3'], '--set fuelDropMinL must be a number above 0'],
    [['--vehicle', '1', '--set', 'dwell=-1'], '--set dwell must be a number 0 or above'],
    [['--vehicle', '1', '--set', 'speedLimitKmh=none'], '--set speedLimitKmh must be a number 0 or above'],
    [['--vehicle', '1', '--reset', 'offlineAfter'], '--reset: unknown setting offlineAfter'],
    [['--vehicle', '1', '--set', 'maxSpeedKmh=fast'], '--set maxSpeedKmh must be a number above 0'],
    [['--vehicle', '1', '--set', 'fuelDropoutSamples=2.5'], '--set fuelDropoutSamples must be a whole number above 0'],
    [['--vehicle', '1', '--set', 'useIgnition=yes'], '--set useIgnition must be true or false'],
    [['--vehicle', '999999999'], 'vehicle 999999999 not found'],
  ])('exits 1 with one JSON error line for %j', async (args, error) => {
    expect(await admin('vehicle', 'settings', ...args)).toEqual({ code: 1, json: { error } });
  });
});

describe('admin faults', () => {
  it('counts each class set aside or ignored in the days with the newest example; reprocess applies a lower maximum speed', async () => {
    // Prepare: a fix 1.5 km off mid-drive (180 km/h: believable at the default 250), two at 0,0, one dated a day ahead
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const day = driveWithAStrayFix(vehicle.imei, 1.5);
    const zero = parked(vehicle.imei, `${DAY}T09:00:00.000Z`, 2, CLIENT, { latitude: 0, longitude: 0 });
    await ingest([...day.records, ...zero], `faults-${vehicle.vehicleUid}`, new Date(`${DAY}T09:05:00.000Z`));
    await ingest([parked(vehicle.imei, '2026-11-08T09:00:00.000Z', 1, CLIENT)[0]!], undefined, new Date(`${DAY}T09:06:00.000Z`));
    const uid = String(vehicle.vehicleUid);
    const tripDistance = async () =>
      Number((await api.get('getTrips', { api_key: user.key, start_date: DAY, end_date: DAY })).body.vehicles[0].trips[0].distance);
    const inflated = await tripDistance();
    // Act
    const before = await admin('faults', '--vehicle', uid, '--from', DAY);
    await admin('vehicle', 'settings', '--vehicle', uid, '--set', 'maxSpeedKmh=150');
    const reprocessed = await admin('reprocess', '--vehicle', uid, '--from', DAY);
    const after = await admin('faults', '--vehicle', uid, '--from', DAY, '--to', DAY);
    // Assess
    expect(before).toEqual({
      code: 0,
      json: {
        vehicle_uid: vehicle.vehicleUid,
        from: DAY,
        to: DAY,
        faults: {
          'in the future': {
            count: 1,
            newest: { gps_datetime: '2026-11-08T09:00:00.000Z', record: expect.stringContaining(vehicle.imei) },
          },
          'zero fix': { count: 2, newest: { gps_datetime: `${DAY}T09:01:00.000Z`, decided_at: `${DAY}T09:01:00.000Z` } },
        },
      },
    });
    expect(reprocessed.json).toMatchObject({ changed: 1 });
    expect(after.json.faults).toMatchObject({ 'speed jump': { count: 1 }, 'zero fix': { count: 2 }, 'in the future': { count: 1 } });
    expect(inflated).toBeGreaterThan(day.distanceKm * 1.05);
    expect(Math.abs((await tripDistance()) - day.distanceKm) / day.distanceKm).toBeLessThanOrEqual(0.02);
    // four CLI runs, each its own Node process
  }, 90_000);

  it('counts the readings dropped from their points, with the newest point and the readings’ names', async () => {
    // Prepare
    const vehicle = await givenVehicle(await givenUser());
    const points = parked(vehicle.imei, `${DAY}T10:00:00.000Z`, 3, DEPOT);
    const dropped = [{ ...points[0], driver_tag_id: 'T'.repeat(3000) }, { ...points[1], speed: 1000, fuel_raw: 2 ** 62 }, points[2]];
    await ingest(dropped as typeof points, undefined, new Date(`${DAY}T10:05:00.000Z`));
    // Act
    const report = await admin('faults', '--vehicle', String(vehicle.vehicleUid), '--from', DAY);
    // Assess
    expect(report.json.faults).toEqual({
      'dropped reading': { count: 3, newest: { gps_datetime: `${DAY}T10:01:00.000Z`, readings: ['fuel_raw', 'speed'] } },
    });
  }, 30_000);

  it.each([
    [['--vehicle', '1'], '--from is required'],
    [['--vehicle', '1', '--from', '2026-11-07', '--to', '2026-11-06'], '--to must be a date (yyyy-mm-dd) not before --from'],
    [['--vehicle', '999999999', '--from', '2026-11-07'], 'vehicle 999999999 not found'],
  ])('exits 1 with one JSON error line for %j', async (args, error) => {
    expect(await admin('faults', ...args)).toEqual({ code: 1, json: { error } });
  });
});
