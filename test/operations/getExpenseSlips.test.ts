import { describe, expect, it } from 'vitest';
import { deleteExpenseType, renameExpenseType } from '../../shared/store/expense-types.ts';
import { api, callOperation } from '../support/api.ts';
import { notIntegers } from '../support/bad-values.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenFillSlip, givenSlip } from '../support/expense-slips-builders.ts';

const list = (user: TestUser, vehicle_uid: number | string | undefined, start_date?: string, end_date?: string) =>
  callOperation('getExpenseSlips', { api_key: user.key, vehicle_uid, start_date, end_date });

const datetimesOf = (body: { slips: { event_datetime: string }[] }) => body.slips.map((slip) => slip.event_datetime);

describe('getExpenseSlips', () => {
  describe('success', () => {
    it('echoes the vehicle and the range as datetimes and returns the slip records', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const slip = await givenSlip(user, vehicle, { amount: '1000000.01' });
      // Act
      const res = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-30');
      // Assess
      expect(res.body).toEqual({
        version: '1',
        result: 'success',
        error_msg: '',
        vehicle_uid: vehicle.vehicleUid,
        start_date: '2026-11-01 00:00:00',
        end_date: '2026-11-30 23:59:59',
        cnt: 1,
        slips: [
          {
            slip_uid: slip.slipUid,
            vehicle_uid: vehicle.vehicleUid,
            type: 2,
            type_name: 'Fuel',
            slip_number: 'INV-1001',
            slip_qty: '42.500',
            slip_amount: '1000000.01',
            event_datetime: '2026-11-01 07:30:00',
            comment: 'Engen Rivonia',
          },
        ],
      });
    });

    it('includes both edge days whole and nothing outside them', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      for (const eventDatetime of ['2026-10-31 23:59:59', '2026-11-01 00:00:00', '2026-11-03 23:59:59', '2026-11-04 00:00:00']) {
        await givenSlip(user, vehicle, { eventDatetime });
      }
      // Act
      const res = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-03');
      // Assess
      expect(datetimesOf(res.body)).toEqual(['2026-11-01 00:00:00', '2026-11-03 23:59:59']);
    });

    it('orders slips by event_datetime, then by slip_uid, whatever order they were made in', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const late = await givenSlip(user, vehicle, { eventDatetime: '2026-11-02 18:00:00' });
      const early = await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 06:00:00' });
      const sameTimeFirst = await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 12:00:00' });
      const sameTimeSecond = await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 12:00:00' });
      // Act
      const res = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-02');
      // Assess
      expect(res.body.slips.map((slip: { slip_uid: number }) => slip.slip_uid)).toEqual(
        [early, sameTimeFirst, sameTimeSecond, late].map((slip) => slip.slipUid),
      );
    });

    it('follows an edited event_datetime into and out of the range', async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const moved = await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 08:00:00' });
      await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 09:00:00' });
      // Act
      await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: moved.slipUid, event_datetime: '2026-11-01 10:00:00' });
      const sameDay = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-01');
      await callOperation('editExpenseSlip', { api_key: user.key, slip_uid: moved.slipUid, event_datetime: '2026-12-01' });
      const afterMove = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-01');
      // Assess
      expect(datetimesOf(sameDay.body)).toEqual(['2026-11-01 09:00:00', '2026-11-01 10:00:00']);
      expect(datetimesOf(afterMove.body)).toEqual(['2026-11-01 09:00:00']);
    });

    it("compares the datetimes as entered, whatever the user's GMT offset", async () => {
      const user = await givenUser({ gmtOffsetMinutes: 120 });
      const vehicle = await givenVehicle(user);
      await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 00:30:00' });
      await givenSlip(user, vehicle, { eventDatetime: '2026-11-01 23:30:00' });
      expect((await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-01')).body.cnt).toBe(2);
    });

    it("shows each type's current name, deleted types with their last one", async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const tolls = await givenExpenseType(user, 'Tolls');
      const parking = await givenExpenseType(user, 'Parking');
      await givenSlip(user, vehicle, { type: tolls, eventDatetime: '2026-11-01 08:00:00' });
      await givenSlip(user, vehicle, { type: parking, eventDatetime: '2026-11-01 09:00:00' });
      await givenSlip(user, vehicle, { type: tolls, eventDatetime: '2026-11-01 10:00:00' });
      await givenSlip(user, vehicle, { type: 2, eventDatetime: '2026-11-01 11:00:00' });
      // Act
      await renameExpenseType(user.userUid, tolls, 'Road tolls');
      await deleteExpenseType(user.userUid, parking);
      const res = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-01');
      // Assess
      expect(res.body.slips.map((slip: { type_name: string }) => slip.type_name)).toEqual(['Road tolls', 'Parking', 'Road tolls', 'Fuel']);
    });

    it("leaves out fill slips and other vehicles' slips", async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      const other = await givenVehicle(user);
      const expense = await givenSlip(user, vehicle);
      await givenFillSlip(vehicle, { eventDatetime: '2026-11-01 08:00:00' });
      await givenSlip(user, other);
      // Act
      const res = await list(user, vehicle.vehicleUid, '2026-11-01', '2026-11-01');
      // Assess
      expect(res.body.slips.map((slip: { slip_uid: number }) => slip.slip_uid)).toEqual([expense.slipUid]);
    });

    it('answers an empty list for a range without slips', async () => {
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      expect((await list(user, vehicle.vehicleUid, '2026-01-01', '2026-01-31')).body).toMatchObject({ cnt: 0, slips: [] });
    });
  });

  describe('errors', () => {
    it.each(notIntegers)('says "vehicle_uid is required and must be an integer" when it is %s', async (_case, vehicleUid) => {
      const user = await givenUser();
      expect(await list(user, vehicleUid, '2026-11-01', '2026-11-01')).toBeError(400, 'vehicle_uid is required and must be an integer');
    });

    it('says "vehicle not found" for another user\'s vehicle, without showing its slips', async () => {
      // Prepare
      const owner = await givenUser();
      const vehicle = await givenVehicle(owner);
      await givenSlip(owner, vehicle);
      const stranger = await givenUser();
      // Act
      const res = await list(stranger, vehicle.vehicleUid, '2026-11-01', '2026-11-01');
      // Assess
      expect(res).toBeError(404, 'vehicle not found or not linked to this api key');
    });

    it.each([
      ['missing', undefined],
      ['with a time', '2026-11-01 00:00:00'],
      ['not a real day', '2026-02-30'],
      ['without zero padding', '2026-11-1'],
      ['unicode', '２０２６-１１-０１'],
    ])('says "start_date is required (yyyy-mm-dd)" and "end_date is required (yyyy-mm-dd)" when it is %s', async (_case, date) => {
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      expect(await list(user, vehicle.vehicleUid, date, '2026-11-01')).toBeError(400, 'start_date is required (yyyy-mm-dd)');
      expect(await list(user, vehicle.vehicleUid, '2026-11-01', date)).toBeError(400, 'end_date is required (yyyy-mm-dd)');
    });

    it('says "start_date may not be after end_date"', async () => {
      const user = await givenUser();
      const vehicle = await givenVehicle(user);
      expect(await list(user, vehicle.vehicleUid, '2026-11-02', '2026-11-01')).toBeError(400, 'start_date may not be after end_date');
    });

    it('refuses a POST with the method message', async () => {
      const user = await givenUser();
      expect(await api.post('getExpenseSlips', { api_key: user.key })).toBeError(405, 'method not allowed, use GET');
    });
  });
});
