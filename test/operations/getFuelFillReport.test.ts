import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenFuelFill } from '../support/expense-slips-builders.ts';
import { CLIENT, DEPOT, drive, ingest, parked } from '../support/position-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const report = (key: string, vehicle_uid: number | string, start_date = '2026-11-01', end_date = '2026-11-30') =>
  callOperation('getFuelFillReport', { api_key: key, vehicle_uid, start_date, end_date });

/** Parked at the depot at 40 L, filled to 100 L over three minutes, then driven away. */
function aFillAtTheDepot(imei: string, day: string) {
  const before = parked(imei, `${day}T07:00:00.000Z`, 15, DEPOT, { fuel_raw: 40 });
  const filling = [45, 60, 75, 90, 100].map(
    (fuel, i) => parked(imei, new Date(Date.parse(`${day}T07:15:00.000Z`) + i * 36_000).toISOString(), 1, DEPOT, { fuel_raw: fuel })[0]!,
  );
  const after = parked(imei, `${day}T07:18:00.000Z`, 15, DEPOT, { fuel_raw: 100 });
  return [...before, ...filling, ...after];
}

describe('getFuelFillReport', () => {
  it('reports a fill the pipeline detected, with every field of the fill record', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user, { fuelCapacity: 120, fuelFactor: 1, odometerAtStart: 2000, name: 'Truck 9', regNum: 'GP 9' });
    await givenUserLocation(user, { description: 'Depot', radius: 0.3 });
    await ingest([
      ...drive(vehicle.imei, '2026-11-05T06:00:00.000Z', 20, CLIENT, DEPOT, { fuel_raw: 40 }).records,
      ...aFillAtTheDepot(vehicle.imei, '2026-11-05'),
    ]);
    // Act
    const res = await report(user.key, vehicle.vehicleUid);
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({
      vehicle_uid: vehicle.vehicleUid,
      imei: vehicle.imei,
      vehicle_name: 'Truck 9',
      registration_number: 'GP 9',
      fuel_factor: 1,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      cnt: 1,
    });
    const [fill] = res.body.fills;
    expect(fill).toEqual({
      event_uid: expect.any(Number),
      event_date: '2026-11-05',
      event_time: expect.stringMatching(/^09:1[2-5]:\d\d$/),
      slip_number: null,
      slip_uid: null,
      slip_qty: null,
      slip_amount: null,
      slip_diff: null,
      fill_qty: expect.any(Number),
      operator_uid: null,
      operator_name: null,
      odo: expect.any(Number),
      hours: 50.3,
      fuel_level_before: 40,
      fuel_level_after: 100,
      latitude: DEPOT.lat,
      longitude: DEPOT.lng,
      location: 'Depot',
      trip_uid: expect.any(Number),
      distance: null,
      duration: null,
      fuel_used: null,
      consumption_km_per_l: null,
      consumption_l_per_hr: null,
    });
    expect(fill?.fill_qty).toBeCloseTo(60, 0);
  });

  it('shows the linked slip, slip_diff, and the figures since the previous fill', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenFuelFill(vehicle, { at: '2026-11-02T07:00:00.000Z', levelAfter: 90 });
    const second = await givenFuelFill(vehicle, {
      at: '2026-11-03T07:00:00.000Z',
      fillQty: 60.04,
      levelBefore: 30,
      levelAfter: 90.04,
      distanceKm: 300,
      durationS: 18000,
      fuelUsed: 60,
    });
    const slip = await callOperation('addFuelFillSlip', {
      api_key: user.key,
      event_uid: second,
      qty: '61.250',
      amount: '1347.50',
      slip_number: 'F-77',
    });
    // Act
    const res = await report(user.key, vehicle.vehicleUid);
    // Assess
    expect(res.body.fills[1]).toMatchObject({
      event_uid: second,
      slip_uid: slip.body.slip_uid,
      slip_number: 'F-77',
      slip_qty: '61.250',
      slip_amount: '1347.50',
      slip_diff: 1.25,
      fill_qty: 60,
      distance: 300,
      duration: 18000,
      fuel_used: 60,
      consumption_km_per_l: 5,
      consumption_l_per_hr: 12,
    });
  });

  it('reflects edits and deletion of the fill slip', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle, { at: '2026-11-02T07:00:00.000Z' });
    const slipUid = (await callOperation('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '60' })).body.slip_uid;
    await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slipUid, qty: '58.5', amount: '999.99' });
    expect((await report(user.key, vehicle.vehicleUid)).body.fills[0]).toMatchObject({
      slip_qty: '58.5',
      slip_amount: '999.99',
      slip_diff: -1.5,
    });
    await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slipUid });
    expect((await report(user.key, vehicle.vehicleUid)).body.fills[0]).toMatchObject({ slip_uid: null, slip_qty: null, slip_diff: null });
  });

  it("takes the dates as the user's days, both inclusive", async () => {
    const user = await givenUser({ gmtOffsetMinutes: -300 });
    const vehicle = await givenVehicle(user);
    for (const at of ['2026-11-02T04:59:59.000Z', '2026-11-02T05:00:00.000Z', '2026-11-03T04:59:59.000Z', '2026-11-03T05:00:00.000Z']) {
      await givenFuelFill(vehicle, { at });
    }
    const res = await report(user.key, vehicle.vehicleUid, '2026-11-02', '2026-11-02');
    expect(res.body.fills.map((f: { event_date: string; event_time: string }) => `${f.event_date} ${f.event_time}`)).toEqual([
      '2026-11-02 00:00:00',
      '2026-11-02 23:59:59',
    ]);
  });

  it.each([
    [{ vehicle_uid: undefined }, 'vehicle_uid is required and must be an integer'],
    [{ vehicle_uid: 'abc' }, 'vehicle_uid is required and must be an integer'],
    [{ start_date: undefined }, 'start_date is required (yyyy-mm-dd)'],
    [{ end_date: '2026-13-01' }, 'end_date is required (yyyy-mm-dd)'],
    [{ start_date: '2026-11-02', end_date: '2026-11-01' }, 'start_date may not be after end_date'],
    [{ start_date: '2025-01-01', end_date: '2026-01-02' }, 'date range may not exceed 366 days'],
  ])('refuses %j with "%s"', async (params, message) => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const res = await callOperation('getFuelFillReport', {
      api_key: user.key,
      vehicle_uid: vehicle.vehicleUid,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      ...params,
    });
    expect(res).toBeError(400, message);
  });

  it('accepts exactly 366 days', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    expect(await report(user.key, vehicle.vehicleUid, '2024-01-01', '2024-12-31')).toBeSuccess();
  });

  it("does not find another user's vehicle", async () => {
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    await givenFuelFill(vehicle);
    const other = await givenUser();
    expect(await report(other.key, vehicle.vehicleUid)).toBeError(404, 'vehicle not found or not linked to this api key');
  });
});
