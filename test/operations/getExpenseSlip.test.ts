import { describe, expect, it } from 'vitest';
import { deleteExpenseType, renameExpenseType } from '../../shared/store/expense-types.ts';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenExpenseType, givenSlip } from '../support/expense-slips-builders.ts';

describe('getExpenseSlip', () => {
  describe('success', () => {
    it('returns the slip record with integer ids and decimal text amounts', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const slip = await givenSlip(user, vehicle, { amount: '12.30', qty: '0.100' });
      // Act
      const res = await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
      // Assess
      expect(res.body).toEqual({
        version: '1',
        result: 'success',
        error_msg: '',
        slip: {
          slip_uid: slip.slipUid,
          vehicle_uid: vehicle.vehicleUid,
          type: 2,
          type_name: 'Fuel',
          slip_number: 'INV-1001',
          slip_qty: '0.100',
          slip_amount: '12.30',
          event_datetime: '2026-11-01 07:30:00',
          comment: 'Engen Rivonia',
        },
      });
    });

    it('shows the current name of a type renamed after the slip was made', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const type = await givenExpenseType(user, 'Tolls');
      const slip = await givenSlip(user, vehicle, { type });
      // Act
      await renameExpenseType(user.userUid, type, 'Road tolls');
      const res = await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
      // Assess
      expect(res.body.slip).toMatchObject({ type, type_name: 'Road tolls' });
    });

    it('keeps the last name of a deleted type on old slips', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const type = await givenExpenseType(user, 'Parking');
      const slip = await givenSlip(user, vehicle, { type });
      // Act
      await deleteExpenseType(user.userUid, type);
      const res = await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: slip.slipUid });
      // Assess
      expect(res.body.slip).toMatchObject({ type, type_name: 'Parking' });
    });

    it("shows a slip to every user its vehicle is linked to, with its type's name", async () => {
      // Prepare
      const owner = await givenUser();
      const vehicle = await givenVehicle(owner);
      const type = await givenExpenseType(owner, 'Tolls');
      const slip = await givenSlip(owner, vehicle, { type });
      const colleague = await givenUser();
      await linkVehicle(colleague.userUid, vehicle.vehicleUid);
      // Act
      const res = await callOperation('getExpenseSlip', { api_key: colleague.key, slip_uid: slip.slipUid });
      // Assess
      expect(res.body.slip).toMatchObject({ slip_uid: slip.slipUid, type_name: 'Tolls' });
    });
  });

  describe('errors', () => {
    it.each(notIntegers)('says "slip_uid is required and must be an integer" when it is %s', async (_case, slip_uid) => {
      const user = await givenUser();
      expect(await callOperation('getExpenseSlip', { api_key: user.key, slip_uid })).toBeError(
        400,
        'slip_uid is required and must be an integer',
      );
    });

    it('says "slip not found" for a slip nobody has', async () => {
      const user = await givenUser();
      expect(await callOperation('getExpenseSlip', { api_key: user.key, slip_uid: 999999999 })).toBeError(
        404,
        'slip not found or not linked to this api key',
      );
    });

    it("never shows another user's slip", async () => {
      // Prepare
      const owner = await givenUser();
      const slip = await givenSlip(owner, await givenVehicle(owner));
      const stranger = await givenUser();
      await givenVehicle(stranger);
      // Act
      const res = await callOperation('getExpenseSlip', { api_key: stranger.key, slip_uid: slip.slipUid });
      // Assess
      expect(res).toBeError(404, 'slip not found or not linked to this api key');
    });

    it('refuses a POST with the method message', async () => {
      const user = await givenUser();
      expect(await api.post('getExpenseSlip', { api_key: user.key, slip_uid: 1 })).toBeError(405, 'method not allowed, use GET');
    });
  });
});
