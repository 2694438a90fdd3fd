/** The API's records as the console reads them (docs/operations.md). */
export interface Vehicle {
  vehicle_uid: string;
  imei: string;
  name: string | null;
  reg_num: string | null;
  veh_grp: string | null;
}

export interface LiveVehicle extends Vehicle {
  last_response: string | null;
  gps_datetime: string | null;
  latitude: string | null;
  longitude: string | null;
  speed: string | null;
  heading: string | null;
  supp_volt: string | null;
}

export interface Trip {
  trip_uid: string;
  start_time: string;
  stop_time: string;
  distance: string;
  duration: string;
  max_speed: string;
  start_location: string;
  stop_location: string;
  driver_name: string | null;
}

export interface Position {
  gps_datetime: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  ignored?: string;
}

export interface FleetEvent {
  event_id: string;
  type: string;
  timestamp: string;
  data: { vehicle_uid: number; vehicle_name: string; occurred_at: string; latitude: number | null; longitude: number | null } & Record<
    string,
    unknown
  >;
}

export interface Webhook {
  webhook_uid: number;
  url: string;
  event_types: string[];
  vehicle_uids: number[];
  description: string;
  enabled: 0 | 1;
  disabled_reason: string | null;
  created_datetime: string;
  last_success_datetime: string | null;
  failing_since: string | null;
}

export interface DeliveryAttempt {
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_datetime: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  state: string;
  next_attempt_datetime: string | null;
}

export interface UserLocation {
  user_location_uid: number;
  latitude: number;
  longitude: number;
  description: string;
  color: string;
  radius: number;
  location_type: 'point' | 'polygon';
  points: string;
  speed: number;
  no_go: 0 | 1;
  only_push: 0 | 1;
}

export const vehicleLabel = (vehicle: Pick<Vehicle, 'name' | 'reg_num' | 'vehicle_uid'>): string =>
  vehicle.name ? `${vehicle.name}${vehicle.reg_num ? ` (${vehicle.reg_num})` : ''}` : `Vehicle ${vehicle.vehicle_uid}`;
