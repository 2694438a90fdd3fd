import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenFillSlip, givenSlip } from '../support/expense-slips-builders.ts';

const NOT_FOUND = 'slip not found or not linked to this api key';

const getSlip = (user: TestUser, slipUid: number) => callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slipUid });

describe('deleteExpenseSlip', () => {
  describe('success', () => {
    it('deletes the slip for good and answers its slip_uid', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const slip = await givenSlip(user, vehicle);
      // Act
      const res = await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
      // Assess
      expect(res.body).toEqual({ version: '1', result: 'success', error_msg: '', slip_uid: slip.slipUid });
      expect(await getSlip(user, slip.slipUid)).toBeError(404, NOT_FOUND);
      const listed = await callOperation('getExpenseSlips', {
        api_key: user.key,
        vehicle_uid: vehicle.vehicleUid,
        start_date: '2026-11-01',
        end_date: '2026-11-01',
      });
      expect(listed.body.cnt).toBe(0);
    });

    it('deletes a fill slip too', async () => {
      const user = await givenUser();
      const slip = await givenFillSlip(await givenVehicle(user));
      expect(await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid })).toBeSuccess();
      expect(await getSlip(user, slip.slipUid)).toBeError(404, NOT_FOUND);
    });

    it('takes a JSON body', async () => {
      const user = await givenUser();
      const slip = await givenSlip(user, await givenVehicle(user));
      expect(await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid }, { json: true })).toBeSuccess();
    });

    it('lets exactly one of parallel deletes of one slip succeed', async () => {
      // Prepare
      const user = await givenUser();
      const slip = await givenSlip(user, await givenVehicle(user));
      // Act
      const results = await Promise.all(
        Array.from({ length: 8 }, () => callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid })),
      );
      // Assess
      expect(results.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    });
  });

  describe('errors', () => {
    it.each(notIntegers)('says "slip_uid is required and must be an integer" when it is %s', async (_case, slip_uid) => {
      const user = await givenUser();
      expect(await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid })).toBeError(
        400,
        'slip_uid is required and must be an integer',
      );
    });

    it('says "slip not found" for a slip nobody has, and for one already deleted', async () => {
      const user = await givenUser();
      const slip = await givenSlip(user, await givenVehicle(user));
      await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
      expect(await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: 999999999 })).toBeError(404, NOT_FOUND);
      expect(await callOperation('deleteExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid })).toBeError(404, NOT_FOUND);
    });

    it("never deletes another user's slip", async () => {
      // Prepare
      const owner = await givenUser();
      const slip = await givenSlip(owner, await givenVehicle(owner));
      const stranger = await givenUser();
      // Act
      const res = await callOperation('deleteExpenseSlip', { api_key: stranger.key, slip_uid: slip.slipUid });
      // Assess
      expect(res).toBeError(404, NOT_FOUND);
      expect(await getSlip(owner, slip.slipUid)).toBeSuccess();
    });

    it('refuses a GET with the method message', async () => {
      const user = await givenUser();
      expect(await api.get('deleteExpenseSlip', { api_key: user.key, slip_uid: 1 })).toBeError(405, 'method not allowed, use POST');
    });
  });
});
