/** Vehicles, their live state and the spec's vehicle and live records (all values strings or null). */
import * as v from 'valibot';
import { dateTimeField, nullableTextField } from '../contracts/primitives.ts';
import type { DetectionSettings } from './tracking/settings.ts';

export interface Vehicle {
  vehicleUid: number;
  imei: string;
  deviceType: string | null;
  config: string | null;
  vehGrp: string | null;
  name: string;
  regNum: string | null;
  make: string | null;
  model: string | null;
  modelYear: string | null;
  vin: string | null;
  odometerAtStart: number | null;
  odometerAtStartDate: string | null;
  startHours: number | null;
  startHoursDate: string | null;
  licenceExpireDate: string | null;
  fuelCapacity: number | null;
  /** multiplier from raw fuel-sensor values to litres; 1 = no calibration */
  fuelFactor: number;
  /** this vehicle's own trip and fill detection settings, over the defaults */
  detection?: Partial<DetectionSettings>;
}

/** The last reported position and telemetry; times are UTC ISO strings. */
export interface LiveState {
  lastResponse: string;
  gpsDatetime: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  driverId: string | null;
  suppVolt: number | null;
  intBattVolt: number | null;
  intTemp: number | null;
  extTemp: number | null;
  fuelValue: number | null;
  deviceType: string | null;
  config: string | null;
  odometerKm: number | null;
  engineHours: number | null;
}

/** A vehicle as one user sees it: the vehicle and its live state, if it ever reported. */
export interface LinkedVehicle {
  vehicle: Vehicle;
  live: LiveState | undefined;
}

const text = (value: number | string | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));

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
    curent_odo: odometerNow === null ? null : String(round(odometerNow, 1)),
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
    live?.fuelValue != null && vehicle.fuelCapacity ? String(round((live.fuelValue / vehicle.fuelCapacity) * 100, 1)) : null;
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
    fuel_value: live?.fuelValue == null ? null : String(round(live.fuelValue, 2)),
    fuel_percent: fuelPercent,
  };
}
