import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenTrip, givenUser, givenVehicle } from '../support/builders.ts';

describe('getTrips', () => {
  it("returns every field of the trip record, times in the user's offset", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user);
    const trip = await givenTrip(vehicle, { startTime: '2026-11-01T06:00:00.000Z', stopTime: '2026-11-01T06:30:00.000Z' });
    // Act
    const res = await callOperation('getTrips', { api_key: user.key, start_date: '2026-11-01', end_date: '2026-11-01' });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ filter: '', start_date: '2026-11-01', end_date: '2026-11-01', cnt: 1 });
    expect(res.body.vehicles).toEqual([
      {
        vehicle_uid: String(vehicle.vehicleUid),
        imei: vehicle.imei,
        trip_cnt: 1,
        trips: [
          {
            trip_uid: String(trip.tripUid),
            start_time: '2026-11-01 08:00:00',
            stop_time: '2026-11-01 08:30:00',
            start_odo: 1000,
            distance: '21.50',
            duration: '1800',
            max_speed: '88',
            fuel_start: '60.0',
            fuel_end: '56.5',
            start_location_lat: '-26.2041',
            start_location_lng: '28.0473',
            start_location: 'Depot',
            stop_location_lat: '-26.1076',
            stop_location_lng: '28.0567',
            stop_location: 'Client',
            driver_name: 'Thabo Mokoena',
            driver_tag_id: '01A2B3C4',
          },
        ],
      },
    ]);
  });

  it('lists each vehicle with an empty trips array when it has none', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const res = await callOperation('getTrips', { api_key: user.key, start_date: '2026-11-01', end_date: '2026-11-02' });
    expect(res.body.vehicles).toEqual([{ vehicle_uid: String(vehicle.vehicleUid), imei: vehicle.imei, trip_cnt: 0, trips: [] }]);
  });

  it("takes start and end dates as the user's calendar days, both inclusive", async () => {
    // Prepare: the user is at GMT+2, so their 1 November runs from 31 Oct 22:00 to 1 Nov 21:59:59 UTC
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const vehicle = await givenVehicle(user);
    const inside = ['2026-10-31T22:00:00.000Z', '2026-11-01T21:59:59.000Z'];
    const outside = ['2026-10-31T21:59:59.000Z', '2026-11-01T22:00:00.000Z'];
    for (const startTime of [...inside, ...outside]) await givenTrip(vehicle, { startTime, stopTime: startTime });
    // Act
    const res = await callOperation('getTrips', { api_key: user.key, start_date: '2026-11-01', end_date: '2026-11-01' });
    // Assess
    expect(res.body.vehicles[0]?.trips.map((trip) => trip.start_time)).toEqual(['2026-11-01 00:00:00', '2026-11-01 23:59:59']);
  });

  it('orders trips by start time and honours the IMEI filter', async () => {
    const user = await givenUser();
    const [a, b] = [await givenVehicle(user), await givenVehicle(user)];
    await givenTrip(a, { startTime: '2026-11-02T10:00:00.000Z' });
    await givenTrip(a, { startTime: '2026-11-02T07:00:00.000Z' });
    await givenTrip(b, { startTime: '2026-11-02T08:00:00.000Z' });
    const res = await callOperation('getTrips', { api_key: user.key, filter: a.imei, start_date: '2026-11-02', end_date: '2026-11-02' });
    expect(res.body.cnt).toBe(1);
    expect(res.body.vehicles[0]?.trips.map((trip) => trip.start_time)).toEqual(['2026-11-02 07:00:00', '2026-11-02 10:00:00']);
  });

  it('shows null for a trip without a driver', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenTrip(vehicle, { driverName: null, driverTagId: null, fuelStart: null, fuelEnd: null });
    const res = await callOperation('getTrips', { api_key: user.key, start_date: '2026-11-01', end_date: '2026-11-01' });
    expect(res.body.vehicles[0]?.trips[0]).toMatchObject({ driver_name: null, driver_tag_id: null, fuel_start: null, fuel_end: null });
  });

  it.each([
    [{ end_date: '2026-11-01' }, 'start_date is required (yyyy-mm-dd)'],
    [{ start_date: '2026-11-01' }, 'end_date is required (yyyy-mm-dd)'],
    [{ start_date: '01/11/2026', end_date: '2026-11-01' }, 'start_date is required (yyyy-mm-dd)'],
    [{ start_date: '2026-02-30', end_date: '2026-03-01' }, 'start_date is required (yyyy-mm-dd)'],
    [{ start_date: '2026-11-01', end_date: '2026-11-01T00:00' }, 'end_date is required (yyyy-mm-dd)'],
    [{ start_date: '2026-11-02', end_date: '2026-11-01' }, 'start_date may not be after end_date'],
  ])('refuses %j with "%s"', async (dates, message) => {
    const user = await givenUser();
    expect(await callOperation('getTrips', { api_key: user.key, ...dates })).toBeError(400, message);
  });

  it("never shows trips of another user's vehicle", async () => {
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    await givenTrip(vehicle);
    const other = await givenUser();
    const res = await callOperation('getTrips', {
      api_key: other.key,
      filter: vehicle.imei,
      start_date: '2026-11-01',
      end_date: '2026-11-01',
    });
    expect(res.body).toMatchObject({ cnt: 0, vehicles: [] });
  });
});
