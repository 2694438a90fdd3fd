/** Fill slips arrive through addFuelFillSlip; the one-slip-per-fill rule lives in the store and is checked here. */
import { describe, expect, it } from 'vitest';
import { addFillSlip, getSlipForUser } from '../../shared/store/expense-slips.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenFillSlip, givenFuelFill } from '../support/expense-slips-builders.ts';

const aFill = (eventUid: number, vehicleUid: number) => ({
  eventUid,
  vehicleUid,
  qty: '60.000',
  amount: '1320.00',
  slipNumber: 'F-1',
  eventDatetime: '2026-11-01 09:12:44',
});

describe('addFillSlip', () => {
  it('stores a type-1 slip that getExpenseSlip shows as a fuel fill', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    // Act
    const slip = await givenFillSlip(vehicle, { qty: '60.125', amount: '0.10' });
    // Assess
    const res = await api.get('getExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
    expect(res.body.slip).toEqual({
      slip_uid: slip.slipUid,
      vehicle_uid: vehicle.vehicleUid,
      type: 1,
      type_name: 'Fuel fill',
      slip_number: 'F-1',
      slip_qty: '60.125',
      slip_amount: '0.10',
      event_datetime: '2026-11-01 09:12:44',
      comment: '',
    });
  });

  it('refuses a second slip for the same fill, naming the existing slip_uid', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    const first = await addFillSlip(aFill(eventUid, vehicle.vehicleUid));
    // Act
    const second = addFillSlip(aFill(eventUid, vehicle.vehicleUid));
    // Assess
    await expect(second).rejects.toMatchObject({
      status: 409,
      message: `a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid ${first.slipUid}`,
    });
  });

  it('lets exactly one of 20 parallel calls for one fill win', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    // Act
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => addFillSlip(aFill(eventUid, vehicle.vehicleUid))));
    // Assess
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result) => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((result) => (result.reason as { status: number }).status)).toEqual(Array(19).fill(409));
    const winner = (won[0] as PromiseFulfilledResult<{ slipUid: number }>).value.slipUid;
    expect((lost[0] as PromiseRejectedResult).reason.message).toMatch(new RegExp(`slip_uid ${winner}$`));
  });

  it('frees the fill for a new slip when its slip is deleted', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    const first = await addFillSlip(aFill(eventUid, vehicle.vehicleUid));
    // Act
    const deleted = await api.post('deleteExpenseSlip', { api_key: user.key, slip_uid: first.slipUid });
    const second = await addFillSlip(aFill(eventUid, vehicle.vehicleUid));
    // Assess
    expect(deleted).toBeSuccess();
    expect(second.slipUid).not.toBe(first.slipUid);
    await expect(getSlipForUser(user.userUid, first.slipUid)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps the fill claimed after an edit of its slip', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const eventUid = await givenFuelFill(vehicle);
    const slip = await addFillSlip(aFill(eventUid, vehicle.vehicleUid));
    // Act
    const edited = await api.post('editExpenseSlip', {
      api_key: user.key,
      slip_uid: slip.slipUid,
      amount: '1400.00',
      event_datetime: '2026-11-01 09:15:00',
    });
    // Assess
    expect(edited).toBeSuccess();
    expect(await getSlipForUser(user.userUid, slip.slipUid)).toMatchObject({
      type: 1,
      amount: '1400.00',
      eventDatetime: '2026-11-01 09:15:00',
    });
    await expect(addFillSlip(aFill(eventUid, vehicle.vehicleUid))).rejects.toMatchObject({ status: 409 });
  });

  it('leaves fill slips out of getExpenseSlips', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenFillSlip(vehicle);
    // Act
    const res = await api.get('getExpenseSlips', {
      api_key: user.key,
      vehicle_uid: vehicle.vehicleUid,
      start_date: '2026-11-01',
      end_date: '2026-11-01',
    });
    // Assess
    expect(res.body).toMatchObject({ cnt: 0, slips: [] });
  });
});
