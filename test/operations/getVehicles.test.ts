import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenLiveState, givenUser, givenVehicle } from '../support/builders.ts';

describe('getVehicles', () => {
  it('returns every field of the vehicle record as strings or null', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { startHoursDate: null, licenceExpireDate: null, fuelFactor: 1.05 });
    // Act
    const res = await callOperation('getVehicles', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ filter: '', cnt: 1 });
    expect(res.body.vehicles).toEqual([
      {
        vehicle_uid: String(vehicle.vehicleUid),
        imei: vehicle.imei,
        device_type: 'FMB920',
        config: '12',
        veh_grp: 'North',
        name: 'Truck 7',
        reg_num: 'GP 77-77',
        veh_make: 'Isuzu',
        veh_model: 'NPR 400',
        veh_model_year: '2020',
        veh_vin: 'JALNPR1234567890A',
        start_odo: '1000',
        start_odo_date: '2026-01-01',
        start_hours: '50',
        start_hours_date: null,
        licence_expire_date: null,
        fuel_capacity: '120',
        fuel_factor: '1.05',
        curent_odo: '1000',
        current_odo_date: '2026-01-01',
      },
    ]);
  });

  it('reports the current odometer from the last position once the vehicle has reported', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    await givenLiveState(vehicle, { odometerKm: 1523.44, gpsDatetime: '2026-11-02T08:15:00.000Z' });
    // Act
    const res = await callOperation('getVehicles', { api_key: user.key });
    // Assess
    expect(res.body.vehicles[0]).toMatchObject({ curent_odo: '1523.4', current_odo_date: '2026-11-02 08:15:00' });
  });

  it("narrows to the IMEIs of the filter, ignoring unknown IMEIs and other users' vehicles", async () => {
    // Prepare
    const user = await givenUser();
    const stranger = await givenUser();
    const [first, , third] = [await givenVehicle(user), await givenVehicle(user), await givenVehicle(user)];
    const strangers = await givenVehicle(stranger);
    const filter = `${first.imei}, ${third.imei},999999999999999,${strangers.imei}`;
    // Act
    const res = await callOperation('getVehicles', { api_key: user.key, filter });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.filter).toBe(filter);
    expect(res.body.cnt).toBe(2);
    expect(res.body.vehicles.map((v: { imei: string }) => v.imei)).toEqual([first.imei, third.imei]);
  });

  it('answers an empty list to a user without vehicles', async () => {
    const user = await givenUser();
    const res = await callOperation('getVehicles', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, vehicles: [] });
  });

  it("never shows another user's vehicles", async () => {
    // Prepare
    const owner = await givenUser();
    await givenVehicle(owner);
    const other = await givenUser();
    // Act
    const res = await callOperation('getVehicles', { api_key: other.key });
    // Assess
    expect(res.body.cnt).toBe(0);
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getVehicles', { api_key: user.key });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });
});
