import { describe, expect, it } from 'vitest';
import { deleteExpenseType, renameExpenseType } from '../../shared/store/expense-types.ts';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType } from '../support/expense-slips-builders.ts';

const TYPE_INVALID = 'type is invalid: not 2 or one of your expense types';
const AMOUNT_REQUIRED = 'amount is required and must be greater than 0';
const DATETIME_REQUIRED = 'event_datetime is required (yyyy-mm-dd hh:mm:ss or yyyy-mm-dd)';

async function givenUserWithVehicle() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  return {
    user,
    vehicle,
    valid: { api_key: user.key, vehicle_uid: vehicle.vehicleUid, type: 2, amount: '850.40', event_datetime: '2026-11-01 07:30:00' },
  };
}

const slipOf = async (user: TestUser, slipUid: number) =>
  (await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slipUid })).body.slip;

describe('addExpenseSlip', () => {
  describe('success', () => {
    it('stores every field and answers the new slip_uid as an integer', async () => {
      // Prepare
      const { user, vehicle, valid } = await givenUserWithVehicle();
      // Act
      const res = await callOperation('addExpenseSlip', { ...valid, qty: '42.500', slip_number: 'INV-1001', comment: 'Engen Rivonia' });
      // Assess
      expect(res).toBeSuccess();
      expect(Object.keys(res.body).sort()).toEqual(['error_msg', 'result', 'slip_uid', 'version']);
      expect(Number.isInteger(res.body.slip_uid)).toBe(true);
      expect(await slipOf(user, res.body.slip_uid)).toEqual({
        slip_uid: res.body.slip_uid,
        vehicle_uid: vehicle.vehicleUid,
        type: 2,
        type_name: 'Fuel',
        slip_number: 'INV-1001',
        slip_qty: '42.500',
        slip_amount: '850.40',
        event_datetime: '2026-11-01 07:30:00',
        comment: 'Engen Rivonia',
      });
    });

    it('defaults qty to "0" and slip_number and comment to empty text', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const res = await callOperation('addExpenseSlip', valid);
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ slip_qty: '0', slip_number: '', comment: '' });
    });

    it('reads a bare date as its midnight', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const res = await callOperation('addExpenseSlip', { ...valid, event_datetime: '2026-11-01' });
      expect((await slipOf(user, res.body.slip_uid)).event_datetime).toBe('2026-11-01 00:00:00');
    });

    it.each(['12.30', '0.10', '1000000.01', '999999999999.99'])('keeps amount %s as exact decimal text', async (amount) => {
      const { user, valid } = await givenUserWithVehicle();
      const res = await callOperation('addExpenseSlip', { ...valid, amount, qty: amount });
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ slip_amount: amount, slip_qty: amount });
    });

    it('keeps a qty with three decimals and drops redundant leading zeros', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const res = await callOperation('addExpenseSlip', { ...valid, amount: '007.50', qty: '0.125' });
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ slip_amount: '7.50', slip_qty: '0.125' });
    });

    it('takes a JSON body, with numbers or decimal text', async () => {
      // Prepare
      const { user, vehicle } = await givenUserWithVehicle();
      // Act
      const res = await api.post(
        'addExpenseSlip',
        { api_key: user.key, vehicle_uid: vehicle.vehicleUid, type: 2, amount: 12.5, qty: '40.000', event_datetime: '2026-11-01 07:30:00' },
        { json: true },
      );
      // Assess
      expect(res).toBeSuccess();
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ slip_amount: '12.5', slip_qty: '40.000' });
    });

    it("accepts one of the user's own expense types and names it", async () => {
      const { user, valid } = await givenUserWithVehicle();
      const type = await givenExpenseType(user, 'Tolls');
      const res = await callOperation('addExpenseSlip', { ...valid, type });
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ type, type_name: 'Tolls' });
    });

    it('keeps unicode text as entered', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const res = await callOperation('addExpenseSlip', { ...valid, slip_number: 'Nº 7', comment: 'Café — 東京 🚚' });
      expect(await slipOf(user, res.body.slip_uid)).toMatchObject({ slip_number: 'Nº 7', comment: 'Café — 東京 🚚' });
    });

    it('gives parallel slips distinct ids', async () => {
      const { valid } = await givenUserWithVehicle();
      const results = await Promise.all(Array.from({ length: 10 }, () => callOperation('addExpenseSlip', valid)));
      expect(new Set(results.map((res) => res.body.slip_uid)).size).toBe(10);
    });
  });

  describe('vehicle_uid', () => {
    it.each(notIntegers)('says "vehicle_uid is required and must be an integer" when it is %s', async (_case, vehicle_uid) => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, vehicle_uid })).toBeError(
        400,
        'vehicle_uid is required and must be an integer',
      );
    });

    it('says "vehicle not found" for a vehicle nobody has', async () => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, vehicle_uid: 999999999 })).toBeError(
        404,
        'vehicle not found or not linked to this api key',
      );
    });

    it('says "vehicle not found" for another user\'s vehicle', async () => {
      const { valid } = await givenUserWithVehicle();
      const stranger = await givenVehicle(await givenUser());
      expect(await callOperation('addExpenseSlip', { ...valid, vehicle_uid: stranger.vehicleUid })).toBeError(
        404,
        'vehicle not found or not linked to this api key',
      );
    });
  });

  describe('type', () => {
    it.each([
      ['missing', undefined],
      ['text', 'Fuel'],
      ['huge', '1e30'],
      ['unknown', 987654321],
      ['1, kept for fill slips', 1],
      ['0', 0],
    ])('says "%s" is invalid', async (_case, type) => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, type })).toBeError(400, TYPE_INVALID);
    });

    it("refuses another user's expense type", async () => {
      const { valid } = await givenUserWithVehicle();
      const type = await givenExpenseType(await givenUser(), 'Tolls');
      expect(await callOperation('addExpenseSlip', { ...valid, type })).toBeError(400, TYPE_INVALID);
    });

    it('refuses a deleted type for new slips', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const type = await givenExpenseType(user, 'Tolls');
      await deleteExpenseType(user.userUid, type);
      expect(await callOperation('addExpenseSlip', { ...valid, type })).toBeError(400, TYPE_INVALID);
    });

    it('accepts a renamed type', async () => {
      const { user, valid } = await givenUserWithVehicle();
      const type = await givenExpenseType(user, 'Tolls');
      await renameExpenseType(user.userUid, type, 'Road tolls');
      const res = await callOperation('addExpenseSlip', { ...valid, type });
      expect((await slipOf(user, res.body.slip_uid)).type_name).toBe('Road tolls');
    });
  });

  describe('amount and qty', () => {
    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['0', '0'],
      ['0.00', '0.00'],
      ['negative', '-5'],
      ['text', 'ten'],
      ['in exponent form', '1e3'],
      ['with a comma', '12,30'],
      ['without a leading digit', '.5'],
    ])('says "amount is required and must be greater than 0" when it is %s', async (_case, amount) => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, amount })).toBeError(400, AMOUNT_REQUIRED);
    });

    it('refuses more than two decimals on amount', async () => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, amount: '12.345' })).toBeError(400, 'amount may have at most 2 decimals');
    });

    it('refuses amounts too large to compute with', async () => {
      const { valid } = await givenUserWithVehicle();
      const tooLarge = 'amount is too large (at most 12 digits before the decimal point)';
      expect(await callOperation('addExpenseSlip', { ...valid, amount: '99999999999999999999' })).toBeError(400, tooLarge);
      expect(await callOperation('addExpenseSlip', { ...valid, amount: 1e30 }, { json: true })).toBeError(400, AMOUNT_REQUIRED);
    });

    it.each([
      ['negative', '-1', 'qty must be a number of 0 or more'],
      ['text', 'lots', 'qty must be a number of 0 or more'],
      ['empty', '', 'qty must be a number of 0 or more'],
      ['with four decimals', '1.2345', 'qty may have at most 3 decimals'],
    ])('refuses a qty that is %s', async (_case, qty, message) => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, qty })).toBeError(400, message);
    });
  });

  describe('event_datetime and text', () => {
    it.each([
      ['missing', undefined],
      ['a month 13', '2026-13-01'],
      ['a 30 February', '2026-02-30'],
      ['ISO with a T', '2026-11-01T07:30:00'],
      ['day first', '01/11/2026'],
      ['hour 24', '2026-11-01 24:00:00'],
      ['without seconds', '2026-11-01 07:30'],
    ])('says "event_datetime is required ..." when it is %s', async (_case, event_datetime) => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, event_datetime })).toBeError(400, DATETIME_REQUIRED);
    });

    it('refuses slip_number and comment over their limits', async () => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, slip_number: 'x'.repeat(101) })).toBeError(
        400,
        'slip_number is too long (max 100 chars)',
      );
      expect(await callOperation('addExpenseSlip', { ...valid, comment: 'x'.repeat(1001) })).toBeError(
        400,
        'comment is too long (max 1000 chars)',
      );
    });
  });

  describe('check order', () => {
    it('checks vehicle_uid before type', async () => {
      const { user } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { api_key: user.key, type: 'x' })).toBeError(
        400,
        'vehicle_uid is required and must be an integer',
      );
    });

    it('checks the vehicle before the type', async () => {
      const { valid } = await givenUserWithVehicle();
      expect(await callOperation('addExpenseSlip', { ...valid, vehicle_uid: 999999999, type: 1 })).toBeError(
        404,
        'vehicle not found or not linked to this api key',
      );
    });

    it('checks type before amount, and amount before event_datetime', async () => {
      const { user, vehicle } = await givenUserWithVehicle();
      const base = { api_key: user.key, vehicle_uid: vehicle.vehicleUid };
      expect(await callOperation('addExpenseSlip', { ...base, type: 'x' })).toBeError(400, TYPE_INVALID);
      expect(await callOperation('addExpenseSlip', { ...base, type: 2 })).toBeError(400, AMOUNT_REQUIRED);
      expect(await callOperation('addExpenseSlip', { ...base, type: 2, amount: '1' })).toBeError(400, DATETIME_REQUIRED);
    });
  });

  it('refuses a GET with the method message', async () => {
    const { valid } = await givenUserWithVehicle();
    expect(await api.get('addExpenseSlip', valid)).toBeError(405, 'method not allowed, use POST');
  });
});
