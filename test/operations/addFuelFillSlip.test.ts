import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenFuelFill } from '../support/expense-slips-builders.ts';

describe('addFuelFillSlip', () => {
  it("stores a type-1 slip dated at the fill in the user's offset, and answers slip_uid and event_uid", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle, { at: '2026-11-01T07:12:44.000Z' });
    // Act
    const res = await callOperation('addFuelFillSlip', {
      api_key: user.key,
      event_uid: eventUid,
      qty: '60.125',
      amount: '1320.10',
      slip_number: 'F-1',
    });
    // Assess
    expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', slip_uid: expect.any(Number), event_uid: eventUid });
    const slip = (await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: res.body.slip_uid })).body.slip;
    expect(slip).toMatchObject({
      type: 1,
      slip_qty: '60.125',
      slip_amount: '1320.10',
      slip_number: 'F-1',
      event_datetime: '2026-11-01 09:12:44',
    });
  });

  it('keeps fill slips out of getExpenseSlips', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle, { at: '2026-11-01T07:00:00.000Z' });
    await callOperation('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '10' });
    const res = await callOperation('getExpenseSlips', {
      api_key: user.key,
      vehicle_uid: vehicle.vehicleUid,
      start_date: '2026-11-01',
      end_date: '2026-11-01',
    });
    expect(res.body.cnt).toBe(0);
  });

  it('allows one slip per fill when 20 requests race', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, () => callOperation('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '50' })),
    );
    // Assess
    const won = results.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expect(res).toBeError(
        409,
        `a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid ${won[0]!.body.slip_uid}`,
      );
    }
  });

  it.each([
    [{ event_uid: undefined }, 'event_uid is required and must be an integer'],
    [{ event_uid: '1.5' }, 'event_uid is required and must be an integer'],
    [{ qty: undefined }, 'qty is required and must be greater than 0'],
    [{ qty: '0' }, 'qty is required and must be greater than 0'],
    [{ qty: '-3' }, 'qty is required and must be greater than 0'],
    [{ qty: 'lots' }, 'qty is required and must be greater than 0'],
    [{ qty: '1.2345' }, 'qty may have at most 3 decimals'],
  ])('refuses %j with "%s"', async (params, message) => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    expect(await callOperation('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: '5', ...params })).toBeError(400, message);
  });

  it("does not find a fill of another user's vehicle, or one that does not exist, and writes nothing", async () => {
    // Prepare
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    const eventUid = await givenFuelFill(vehicle);
    const other = await givenUser();
    // Act
    const foreign = await callOperation('addFuelFillSlip', { api_key: other.key, event_uid: eventUid, qty: '5' });
    const missing = await callOperation('addFuelFillSlip', { api_key: owner.key, event_uid: 999999999, qty: '5' });
    // Assess
    expect(foreign).toBeError(404, 'fuel fill event not found or not linked to this api key');
    expect(missing).toBeError(404, 'fuel fill event not found or not linked to this api key');
    expect(await callOperation('addFuelFillSlip', { api_key: owner.key, event_uid: eventUid, qty: '5' })).toBeSuccess();
  });

  it('takes a JSON body', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    expect(await callOperation('addFuelFillSlip', { api_key: user.key, event_uid: eventUid, qty: 12.5 }, { json: true })).toBeSuccess();
  });
});
