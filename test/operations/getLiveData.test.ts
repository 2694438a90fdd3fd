import { describe, expect, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenLiveState, givenUser, givenVehicle } from '../support/builders.ts';

describe('getLiveData', () => {
  it('returns every field of the live record as strings or null', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelCapacity: 120 });
    // the builder's live state: reported 06:00:05 for a fix of 06:00:00 at -26.2041, 28.0473, fuel 60 of 120 litres
    await givenLiveState(vehicle, { extTemp: null });
    // Act
    const res = await callOperation('getLiveData', { api_key: user.key });
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
        last_response: '2026-11-01 06:00:05',
        gps_datetime: '2026-11-01 06:00:00',
        latitude: '-26.2041',
        longitude: '28.0473',
        speed: '42',
        heading: '180',
        driver_id: '01A2B3C4',
        supp_volt: '13.8',
        int_batt_volt: '4.1',
        int_temp: '31',
        ext_temp: null,
        fuel_value: '60',
        fuel_percent: '50',
      },
    ]);
  });

  it('answers null device and telemetry fields for a vehicle that never reported', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const res = await callOperation('getLiveData', { api_key: user.key });
    expect(res.body.vehicles).toEqual([
      {
        vehicle_uid: String(vehicle.vehicleUid),
        imei: vehicle.imei,
        device_type: null,
        config: null,
        veh_grp: 'North',
        name: 'Truck 7',
        reg_num: 'GP 77-77',
        last_response: null,
        gps_datetime: null,
        latitude: null,
        longitude: null,
        speed: null,
        heading: null,
        driver_id: null,
        supp_volt: null,
        int_batt_volt: null,
        int_temp: null,
        ext_temp: null,
        fuel_value: null,
        fuel_percent: null,
      },
    ]);
  });

  it('leaves fuel_percent null when the tank size is unknown', async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelCapacity: null });
    await givenLiveState(vehicle, { fuelValue: 30 });
    const res = await callOperation('getLiveData', { api_key: user.key });
    expect(res.body.vehicles[0]).toMatchObject({ fuel_value: '30', fuel_percent: null });
  });

  it("narrows to the filter's IMEIs; unknown and other users' IMEIs match nothing", async () => {
    // Prepare
    const user = await givenUser();
    const mine = await givenVehicle(user);
    await givenVehicle(user);
    const stranger = await givenUser();
    const theirs = await givenVehicle(stranger);
    await givenLiveState(theirs);
    // Act
    const res = await callOperation('getLiveData', { api_key: user.key, filter: `${mine.imei},${theirs.imei},000` });
    // Assess
    expect(res.body.cnt).toBe(1);
    expect(res.body.vehicles[0]?.imei).toBe(mine.imei);
  });

  it('shows another user nothing of a vehicle they are not linked to', async () => {
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    await givenLiveState(vehicle);
    const other = await givenUser();
    const res = await callOperation('getLiveData', { api_key: other.key, filter: vehicle.imei });
    expect(res.body).toMatchObject({ cnt: 0, vehicles: [] });
  });
});
