/** `npm run admin -- reprocess`: detection re-run over stored history, as a platform engineer runs it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';

const run = promisify(execFile);

async function reprocess(...args: string[]): Promise<{ json: Record<string, unknown>; code: number }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', 'reprocess', ...args], { env: process.env });
    return { json: JSON.parse(stdout), code: 0 };
  } catch (error) {
    const failed = error as { stderr: string; code: number };
    return { json: JSON.parse(failed.stderr), code: failed.code };
  }
}

const DAY = '2026-11-06';

describe('admin reprocess', () => {
  it('answers that nothing changed for a vehicle that never reported', async () => {
    // Prepare
    const vehicle = await givenVehicle(await givenUser());
    // Act
    const result = await reprocess('--vehicle', String(vehicle.vehicleUid), '--from', DAY);
    // Assess
    expect(result).toEqual({
      code: 0,
      json: { vehicle_uid: vehicle.vehicleUid, from: DAY, new_trips: 0, new_fills: 0, changed: 0, removed: 0, fills_kept_for_slip: 0 },
    });
  });

  it("applies a changed fuel_factor to the stored history's fills and trips, keeping their identities", async () => {
    // Prepare: a fill from 20 to 50 raw units, then a drive
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelFactor: 1, fuelCapacity: 200 });
    await ingest([
      ...parked(vehicle.imei, `${DAY}T07:00:00.000Z`, 10, DEPOT, { fuel_raw: 20 }),
      ...parked(vehicle.imei, `${DAY}T07:10:00.000Z`, 20, DEPOT, { fuel_raw: 50 }),
      ...drive(vehicle.imei, `${DAY}T08:00:00.000Z`, 20, DEPOT, CLIENT, { fuel_raw: 50 }).records,
    ]);
    const range = { api_key: user.key, start_date: DAY, end_date: DAY };
    const [fill] = (await api.get('getFuelFillReport', { ...range, vehicle_uid: vehicle.vehicleUid })).body.fills;
    const [trip] = (await api.get('getTrips', range)).body.vehicles[0].trips;
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.vehicle(vehicle.vehicleUid),
        UpdateExpression: 'SET fuel_factor = :f',
        ExpressionAttributeValues: { ':f': 2 },
      }),
    );
    // Act
    const result = await reprocess('--vehicle', String(vehicle.vehicleUid), '--from', DAY);
    const again = await reprocess('--vehicle', String(vehicle.vehicleUid), '--from', DAY);
    // Assess
    expect(result).toEqual({
      code: 0,
      json: { vehicle_uid: vehicle.vehicleUid, from: DAY, new_trips: 0, new_fills: 0, changed: 2, removed: 0, fills_kept_for_slip: 0 },
    });
    expect(again.json).toMatchObject({ new_trips: 0, new_fills: 0, changed: 0, removed: 0 });
    const [refilled] = (await api.get('getFuelFillReport', { ...range, vehicle_uid: vehicle.vehicleUid })).body.fills;
    const [retripped] = (await api.get('getTrips', range)).body.vehicles[0].trips;
    expect(refilled).toMatchObject({ event_uid: fill.event_uid, fill_qty: 60, fuel_level_after: 100 });
    expect(fill.fill_qty).toBe(30);
    expect(retripped).toMatchObject({ trip_uid: trip.trip_uid, fuel_start: '100.0' });
  });

  it.each([
    [['--from', DAY], '--vehicle is required'],
    [['--vehicle', '1'], '--from is required'],
    [['--vehicle', '1', '--from', '2026-02-30'], '--from must be a date (yyyy-mm-dd)'],
    [['--vehicle', '999999999', '--from', DAY], 'vehicle 999999999 not found'],
  ])('exits 1 with one JSON error line for %j', async (args, error) => {
    expect(await reprocess(...args)).toEqual({ code: 1, json: { error } });
  });
});
