/** The spec's vehicle and live records (all values strings or null): getVehicles, getLiveData. */
import * as v from 'valibot';
import { roundTo } from '../domain/geo.ts';
import type { LinkedVehicle } from '../domain/vehicle.ts';
import { dateTimeField, nullableTextField, scalar } from './primitives.ts';

const text = (value: number | string | null | undefined): string | null => (value === null || value === undefined ? null : String(value));

const utcDateTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** The fields the live record shares with the vehicle record ("as in the vehicle record", says the spec). */
const vehicleIdentity = {
  vehicle_uid: v.string(),
  imei: v.string(),
  device_type: nullableTextField,
  config: nullableTextField,
  veh_grp: nullableTextField,
  name: v.string(),
  reg_num: nullableTextField,
};

export const VehicleRecord = v.object({
  ...vehicleIdentity,
  veh_make: nullableTextField,
  veh_model: nullableTextField,
  veh_model_year: nullableTextField,
  veh_vin: nullableTextField,
  start_odo: nullableTextField,
  start_odo_date: nullableTextField,
  start_hours: nullableTextField,
  start_hours_date: nullableTextField,
  licence_expire_date: nullableTextField,
  fuel_capacity: nullableTextField,
  fuel_factor: v.string(),
  curent_odo: nullableTextField,
  current_odo_date: nullableTextField,
});

export function toVehicleRecord({ vehicle, live }: LinkedVehicle): v.InferOutput<typeof VehicleRecord> {
  // Before the first report the best estimate of the odometer is the last reading entered.
  const odometerNow = live?.odometerKm ?? vehicle.odometerAtStart;
  const odometerNowDate = live?.odometerKm != null ? utcDateTime(live.gpsDatetime) : vehicle.odometerAtStartDate;
  return {
    vehicle_uid: String(vehicle.vehicleUid),
    imei: vehicle.imei,
    device_type: vehicle.deviceType,
    config: vehicle.config,
    veh_grp: vehicle.vehGrp,
    name: vehicle.name,
    reg_num: vehicle.regNum,
    veh_make: vehicle.make,
    veh_model: vehicle.model,
    veh_model_year: vehicle.modelYear,
    veh_vin: vehicle.vin,
    start_odo: text(vehicle.odometerAtStart),
    start_odo_date: vehicle.odometerAtStartDate,
    start_hours: text(vehicle.startHours),
    start_hours_date: vehicle.startHoursDate,
    licence_expire_date: vehicle.licenceExpireDate,
    fuel_capacity: text(vehicle.fuelCapacity),
    fuel_factor: String(vehicle.fuelFactor),
    curent_odo: odometerNow === null ? null : String(roundTo(odometerNow, 1)),
    current_odo_date: odometerNowDate,
  };
}

/** Before the vehicle's first report, everything the device tells is null. */
export const LiveRecord = v.object({
  ...vehicleIdentity,
  last_response: v.nullable(dateTimeField),
  gps_datetime: v.nullable(dateTimeField),
  latitude: nullableTextField,
  longitude: nullableTextField,
  speed: nullableTextField,
  heading: nullableTextField,
  driver_id: nullableTextField,
  supp_volt: nullableTextField,
  int_batt_volt: nullableTextField,
  int_temp: nullableTextField,
  ext_temp: nullableTextField,
  fuel_value: nullableTextField,
  fuel_percent: nullableTextField,
});

export function toLiveRecord({ vehicle, live }: LinkedVehicle): v.InferOutput<typeof LiveRecord> {
  const fuelPercent =
    live?.fuelValue != null && vehicle.fuelCapacity ? String(roundTo((live.fuelValue / vehicle.fuelCapacity) * 100, 1)) : null;
  return {
    vehicle_uid: String(vehicle.vehicleUid),
    imei: vehicle.imei,
    device_type: live?.deviceType ?? null,
    config: live?.config ?? null,
    veh_grp: vehicle.vehGrp,
    name: vehicle.name,
    reg_num: vehicle.regNum,
    last_response: live ? utcDateTime(live.lastResponse) : null,
    gps_datetime: live ? utcDateTime(live.gpsDatetime) : null,
    latitude: text(live?.latitude),
    longitude: text(live?.longitude),
    speed: text(live?.speed),
    heading: text(live?.heading),
    driver_id: live?.driverId ?? null,
    supp_volt: text(live?.suppVolt),
    int_batt_volt: text(live?.intBattVolt),
    int_temp: text(live?.intTemp),
    ext_temp: text(live?.extTemp),
    fuel_value: live?.fuelValue == null ? null : String(roundTo(live.fuelValue, 2)),
    fuel_percent: fuelPercent,
  };
}

/** The `filter` of IMEIs: comma-delimited, blanks ignored; absent means every vehicle of the key. */
export const imeiFilter = v.optional(
  v.pipe(
    scalar('filter must be a comma-delimited list of IMEI numbers'),
    v.transform((text) => ({
      text,
      imeis: text
        .split(',')
        .map((imei) => imei.trim())
        .filter((imei) => imei !== ''),
    })),
  ),
);
