/**
 * Every date input is a real calendar day of the years 0001 to 9999 (issue 23): a year 0000 day is refused with
 * the parameter's own message, by every operation that takes a date. Every date-range parameter takes any
 * yyyy-mm-dd of those years for users on both sides of GMT: `9999-12-31` as
 * "no end", `0001-01-01` as "no start", and records a second either side of the user's midnight
 * fall on the right day. getTrips, getFuelFillReport and getJobCards convert the user's days to UTC
 * instants; getExpenseSlips compares the local datetimes as entered.
 */
import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenTrip, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard } from '../support/job-card-builders.ts';
import { anOperator, givenOperator } from '../support/operators-builders.ts';

const OFFSETS = [-720, -300, 0, 330, 840];
const DAY = '2026-03-01';
const DAY_BEFORE = '2026-02-28';
const MINUTE_MS = 60_000;

/** The UTC instant of a local time of a user at `offsetMinutes`. */
const utcOf = (localDateTime: string, offsetMinutes: number): string =>
  new Date(Date.parse(`${localDateTime}Z`) - offsetMinutes * MINUTE_MS).toISOString();

/** Records 30 s before and 30 s after the user's midnight starting DAY. */
const justBefore = (offset: number) => utcOf(`${DAY_BEFORE}T23:59:30.000`, offset);
const justAfter = (offset: number) => utcOf(`${DAY}T00:00:30.000`, offset);

describe.each(OFFSETS)('date ranges for a user at GMT offset %i minutes', (offset) => {
  it("getTrips: any valid range, far bounds included, splits the records at the user's midnight", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: offset });
    const vehicle = await givenVehicle(user);
    const before = await givenTrip(vehicle, { startTime: justBefore(offset), stopTime: justAfter(offset) });
    const after = await givenTrip(vehicle, { startTime: justAfter(offset), stopTime: utcOf(`${DAY}T00:10:00.000`, offset) });
    const tripsOf = async (start_date: string, end_date: string) => {
      const res = await api.get('getTrips', { api_key: user.key, start_date, end_date });
      expect(res, `${start_date}..${end_date}`).toBeSuccess();
      return res.body.vehicles[0].trips.map((trip: { trip_uid: string }) => Number(trip.trip_uid));
    };
    // Act, Assess
    expect(await tripsOf(DAY, '9999-12-31')).toEqual([after.tripUid]);
    expect(await tripsOf('0001-01-01', DAY_BEFORE)).toEqual([before.tripUid]);
    expect(await tripsOf('0001-01-01', '9999-12-31')).toEqual([before.tripUid, after.tripUid]);
    expect(await tripsOf('9999-12-31', '9999-12-31')).toEqual([]);
    expect(await tripsOf('0001-01-01', '0001-01-01')).toEqual([]);
  });

  it("getFuelFillReport: any valid range up to 366 days, far years included, splits the fills at the user's midnight", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: offset });
    const vehicle = await givenVehicle(user);
    const before = await givenFuelFill(vehicle, { at: justBefore(offset) });
    const after = await givenFuelFill(vehicle, { at: justAfter(offset) });
    const fillsOf = async (start_date: string, end_date: string) => {
      const res = await api.get('getFuelFillReport', { api_key: user.key, vehicle_uid: vehicle.vehicleUid, start_date, end_date });
      expect(res, `${start_date}..${end_date}`).toBeSuccess();
      return res.body.fills.map((fill: { event_uid: number }) => fill.event_uid);
    };
    // Act, Assess
    expect(await fillsOf(DAY, DAY)).toEqual([after]);
    expect(await fillsOf(DAY_BEFORE, DAY_BEFORE)).toEqual([before]);
    expect(await fillsOf(DAY_BEFORE, '2027-02-28')).toEqual([before, after]);
    expect(await fillsOf('9999-01-01', '9999-12-31')).toEqual([]);
    expect(await fillsOf('0001-01-01', '0001-12-31')).toEqual([]);
  });

  it("getJobCards: any valid bound, far bounds included, splits the cards at the user's midnight", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: offset });
    const before = await givenJobCard(user, aJobCardPayload(), { createdAt: justBefore(offset) });
    const after = await givenJobCard(user, aJobCardPayload(), { createdAt: justAfter(offset) });
    const cardsOf = async (bounds: Record<string, string>) => {
      const res = await api.get('getJobCards', { api_key: user.key, ...bounds });
      expect(res, JSON.stringify(bounds)).toBeSuccess();
      return res.body.job_cards.map((card: { job_card_uid: number }) => card.job_card_uid);
    };
    // Act, Assess
    expect(await cardsOf({ from_date: DAY, to_date: '9999-12-31' })).toEqual([after.jobCardUid]);
    expect(await cardsOf({ to_date: '9999-12-31' })).toEqual([after.jobCardUid, before.jobCardUid]);
    expect(await cardsOf({ from_date: '0001-01-01', to_date: DAY_BEFORE })).toEqual([before.jobCardUid]);
    expect(await cardsOf({ to_date: DAY_BEFORE })).toEqual([before.jobCardUid]);
    expect(await cardsOf({ from_date: '9999-12-31' })).toEqual([]);
    expect(await cardsOf({ to_date: '0001-01-01' })).toEqual([]);
  });

  it('getExpenseSlips: any valid range, far bounds included, splits the slips at midnight as entered', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: offset });
    const vehicle = await givenVehicle(user);
    const before = await givenSlip(user, vehicle, { eventDatetime: `${DAY_BEFORE} 23:59:59` });
    const after = await givenSlip(user, vehicle, { eventDatetime: `${DAY} 00:00:00` });
    const slipsOf = async (start_date: string, end_date: string) => {
      const res = await api.get('getExpenseSlips', { api_key: user.key, vehicle_uid: vehicle.vehicleUid, start_date, end_date });
      expect(res, `${start_date}..${end_date}`).toBeSuccess();
      return res.body.slips.map((slip: { slip_uid: number }) => slip.slip_uid);
    };
    // Act, Assess
    expect(await slipsOf(DAY, '9999-12-31')).toEqual([after.slipUid]);
    expect(await slipsOf('0001-01-01', DAY_BEFORE)).toEqual([before.slipUid]);
    expect(await slipsOf('9999-12-31', '9999-12-31')).toEqual([]);
  });
});

describe('a date that cannot be handled', () => {
  const refusals: Array<[string, (user: TestUser) => Record<string, unknown>, string]> = [
    ['getTrips', () => ({ start_date: '2026-01-01', end_date: '10000-01-01' }), 'end_date is required (yyyy-mm-dd)'],
    ['getTrips', () => ({ start_date: '0000-02-30', end_date: '2026-01-01' }), 'start_date is required (yyyy-mm-dd)'],
    ['getExpenseSlips', () => ({ vehicle_uid: 1, start_date: '2026-01-01', end_date: '+9999-12-31' }), 'end_date is required (yyyy-mm-dd)'],
    [
      'getFuelFillReport',
      () => ({ vehicle_uid: 1, start_date: '-0001-01-01', end_date: '2026-01-01' }),
      'start_date is required (yyyy-mm-dd)',
    ],
    ['getJobCards', () => ({ from_date: '2026-01-01', to_date: '99999-12-31' }), 'from_date / to_date format error (yyyy-mm-dd)'],
  ];

  it.each(refusals)('is refused by %s with its own date message', async (operation, params, message) => {
    const user = await givenUser({ gmtOffsetMinutes: -720 });
    const res = await api.get(operation, { api_key: user.key, ...params(user) });
    expect(res).toBeError(400, message);
  });
});

describe('a day of the year 0000', () => {
  const YEAR_ZERO = '0000-01-01';
  const refusals: Array<[string, (user: TestUser) => Promise<Parameters<typeof callOperation>[1]>, string]> = [
    ['getTrips', async () => ({ start_date: YEAR_ZERO, end_date: '2026-01-01' }), 'start_date is required (yyyy-mm-dd)'],
    [
      'getExpenseSlips',
      async (user) => ({ vehicle_uid: (await givenVehicle(user)).vehicleUid, start_date: YEAR_ZERO, end_date: '2026-01-01' }),
      'start_date is required (yyyy-mm-dd)',
    ],
    [
      'getFuelFillReport',
      async (user) => ({ vehicle_uid: (await givenVehicle(user)).vehicleUid, start_date: YEAR_ZERO, end_date: '2026-01-01' }),
      'start_date is required (yyyy-mm-dd)',
    ],
    ['getJobCards', async () => ({ from_date: YEAR_ZERO }), 'from_date / to_date format error (yyyy-mm-dd)'],
    [
      'getPositions',
      async (user) => ({
        vehicle_uid: (await givenVehicle(user)).vehicleUid,
        start_datetime: `${YEAR_ZERO} 00:00:00`,
        end_datetime: '0001-01-01 00:00:00',
      }),
      'start_datetime is required (yyyy-mm-dd hh:mm:ss)',
    ],
    [
      'addExpenseSlip',
      async (user) => ({ vehicle_uid: (await givenVehicle(user)).vehicleUid, type: 2, amount: '10', event_datetime: YEAR_ZERO }),
      'event_datetime is required (yyyy-mm-dd hh:mm:ss or yyyy-mm-dd)',
    ],
    [
      'editExpenseSlip',
      async (user) => ({ slip_uid: (await givenSlip(user, await givenVehicle(user))).slipUid, event_datetime: `${YEAR_ZERO} 08:00:00` }),
      'event_datetime must be yyyy-mm-dd hh:mm:ss or yyyy-mm-dd',
    ],
    ['addOperator', async () => anOperator({ driver_licence_expiry_datetime: YEAR_ZERO }), 'expiry dates must be yyyy-mm-dd'],
    [
      'editOperator',
      async (user) => ({ operator_uid: (await givenOperator(user)).operatorUid, mc_expiry_datetime: `${YEAR_ZERO} 00:00:00` }),
      'expiry dates must be yyyy-mm-dd',
    ],
  ];

  it.each(refusals)('is refused by %s with its own message', async (operation, params, message) => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation(operation as 'getTrips', { api_key: user.key, ...(await params(user)) });
    // Assess
    expect(res).toBeError(400, message);
  });
});
