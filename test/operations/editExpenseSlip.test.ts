import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenSlip } from '../support/expense-slips-builders.ts';

const slipOf = async (user: TestUser, slipUid: number) =>
  (await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slipUid })).body.slip;

async function givenUserWithSlip() {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  const slip = await givenSlip(user, vehicle);
  return { user, vehicle, slip, before: await slipOf(user, slip.slipUid) };
}

describe('editExpenseSlip', () => {
  describe('success', () => {
    it('changes every field given and answers the slip_uid', async () => {
      // Prepare
      const { user, slip, before } = await givenUserWithSlip();
      const changes = {
        amount: '12.30',
        qty: '0.125',
        slip_number: 'INV-2002',
        event_datetime: '2026-11-02 16:45:10',
        comment: 'Corrected',
      };
      // Act
      const res = await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, ...changes });
      // Assess
      expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', slip_uid: slip.slipUid });
      expect(await slipOf(user, slip.slipUid)).toEqual({
        ...before,
        slip_amount: '12.30',
        slip_qty: '0.125',
        slip_number: 'INV-2002',
        event_datetime: '2026-11-02 16:45:10',
        comment: 'Corrected',
      });
    });

    it('keeps every field it is not given', async () => {
      const { user, slip, before } = await givenUserWithSlip();
      await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, amount: '0.10' });
      expect(await slipOf(user, slip.slipUid)).toEqual({ ...before, slip_amount: '0.10' });
    });

    it('changes nothing when given only the slip_uid', async () => {
      const { user, slip, before } = await givenUserWithSlip();
      expect(await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid })).toBeSuccess();
      expect(await slipOf(user, slip.slipUid)).toEqual(before);
    });

    it('clears slip_number and comment given empty, and sets qty to 0', async () => {
      const { user, slip } = await givenUserWithSlip();
      await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, slip_number: '', comment: '', qty: '0' });
      expect(await slipOf(user, slip.slipUid)).toMatchObject({ slip_number: '', comment: '', slip_qty: '0' });
    });

    it('reads a bare date as its midnight', async () => {
      const { user, slip } = await givenUserWithSlip();
      await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, event_datetime: '2026-12-24' });
      expect((await slipOf(user, slip.slipUid)).event_datetime).toBe('2026-12-24 00:00:00');
    });

    it('takes a JSON body', async () => {
      const { user, slip } = await givenUserWithSlip();
      const res = await api.post(
        'editExpenseSlip',
        { api_key: user.key, slip_uid: slip.slipUid, amount: '1000000.01', comment: 'Café 🚚' },
        { json: true },
      );
      expect(res).toBeSuccess();
      expect(await slipOf(user, slip.slipUid)).toMatchObject({ slip_amount: '1000000.01', comment: 'Café 🚚' });
    });

    it("accepts the slip's own type and refuses any other", async () => {
      // Prepare
      const { user, slip, before } = await givenUserWithSlip();
      const tolls = await givenExpenseType(user, 'Tolls');
      // Act
      const same = await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, type: 2, amount: '5.00' });
      const other = await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, type: tolls, amount: '6.00' });
      // Assess
      expect(same).toBeSuccess();
      expect(other).toBeError(400, 'type cannot be changed: delete the slip and add a new one');
      expect(await slipOf(user, slip.slipUid)).toEqual({ ...before, slip_amount: '5.00' });
    });

    it('keeps both of two parallel edits of different fields', async () => {
      const { user, slip } = await givenUserWithSlip();
      await Promise.all([
        callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, amount: '99.99' }),
        callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, comment: 'Parallel' }),
      ]);
      expect(await slipOf(user, slip.slipUid)).toMatchObject({ slip_amount: '99.99', comment: 'Parallel' });
    });
  });

  describe('errors', () => {
    it.each(notIntegers)('says "slip_uid is required and must be an integer" when it is %s', async (_case, slip_uid) => {
      const user = await givenUser();
      expect(await callOperation('editExpenseSlip', { api_key: user.key, slip_uid, amount: '1' })).toBeError(
        400,
        'slip_uid is required and must be an integer',
      );
    });

    it('says "slip not found" for a slip nobody has', async () => {
      const user = await givenUser();
      expect(await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: 999999999, amount: '1' })).toBeError(
        404,
        'slip not found or not linked to this api key',
      );
    });

    it("never edits another user's slip", async () => {
      // Prepare
      const { user, slip, before } = await givenUserWithSlip();
      const stranger = await givenUser();
      // Act
      const res = await callOperation('editExpenseSlip', {
        api_key: stranger.key,
        slip_uid: slip.slipUid,
        amount: '1.00',
        comment: 'Hacked',
      });
      // Assess
      expect(res).toBeError(404, 'slip not found or not linked to this api key');
      expect(await slipOf(user, slip.slipUid)).toEqual(before);
    });

    it.each(['0', '0.00', '-3', 'abc', '', '1e3'])('says "amount must be greater than 0" for amount "%s"', async (amount) => {
      const { user, slip, before } = await givenUserWithSlip();
      expect(await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, amount })).toBeError(
        400,
        'amount must be greater than 0',
      );
      expect(await slipOf(user, slip.slipUid)).toEqual(before);
    });

    it.each([
      [{ amount: '1.001' }, 'amount may have at most 2 decimals'],
      [{ amount: '99999999999999999999' }, 'amount is too large (at most 12 digits before the decimal point)'],
      [{ qty: '-1' }, 'qty must be a number of 0 or more'],
      [{ qty: '1.0001' }, 'qty may have at most 3 decimals'],
      [{ event_datetime: '2026-11-31 10:00:00' }, 'event_datetime must be yyyy-mm-dd hh:mm:ss or yyyy-mm-dd'],
      [{ event_datetime: '' }, 'event_datetime must be yyyy-mm-dd hh:mm:ss or yyyy-mm-dd'],
      [{ comment: 'x'.repeat(1001) }, 'comment is too long (max 1000 chars)'],
      [{ type: 'Fuel' }, 'type must be an integer'],
    ])('refuses %o', async (params, message) => {
      const { user, slip } = await givenUserWithSlip();
      expect(await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid, ...params })).toBeError(400, message);
    });

    it('refuses a GET with the method message', async () => {
      const user = await givenUser();
      expect(await api.get('editExpenseSlip', { api_key: user.key, slip_uid: 1 })).toBeError(405, 'method not allowed, use POST');
    });
  });
});
