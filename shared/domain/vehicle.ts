/** Vehicles and their live state, as one user sees them; the records they answer are in shared/contracts/vehicles.ts. */
import type { VehicleSettings } from './events/settings.ts';
import type { FuelSensorSetting } from './tracking/settings.ts';

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
  /** this vehicle's own trip, fill, device-fault and event settings, over the defaults */
  detection?: Partial<VehicleSettings>;
  /** where a Teltonika unit reports this vehicle's fuel level, over DEFAULT_FUEL_SENSOR */
  fuelSensor?: FuelSensorSetting;
}

/** A vehicle's details as registered with only its IMEI and name: every optional parameter empty, its fuel uncalibrated. */
export const vehicleDetails = (
  details: Pick<Vehicle, 'imei' | 'name'> & Partial<Omit<Vehicle, 'vehicleUid'>>,
): Omit<Vehicle, 'vehicleUid'> => ({
  deviceType: null,
  config: null,
  vehGrp: null,
  regNum: null,
  make: null,
  model: null,
  modelYear: null,
  vin: null,
  odometerAtStart: null,
  odometerAtStartDate: null,
  startHours: null,
  startHoursDate: null,
  licenceExpireDate: null,
  fuelCapacity: null,
  fuelFactor: 1,
  ...details,
});

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
