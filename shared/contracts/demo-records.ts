/**
 * Records of the seeded demo (`npm start` on an empty .local/) as the operations answer them, named once for the
 * examples of every operation that reads them (functions/<name>/contract.ts). The ids are the ones a fresh demo
 * hands out: vehicles 1-3, saved locations 1-4, operators 1-2, expense types 3 (Tolls) and 4 (Parking), slips 1-3,
 * and fuel fills 1-4 (3, the van's, without a slip); records the examples create come next.
 */
/** The demo depot's polygon as a saved location reads it back. */
export const DEPOT_POLYGON = [
  { lat: -26.0022, lng: 28.1293 },
  { lat: -26.0022, lng: 28.1233 },
  { lat: -25.996199999999998, lng: 28.1233 },
  { lat: -25.996199999999998, lng: 28.1293 },
] as const;
/** Its points' JSON text. */
export const DEPOT_POLYGON_TEXT = JSON.stringify(DEPOT_POLYGON);

/** Vehicle 1 of the demo, the truck, as getVehicles and getLiveData name it. */
export const TRUCK_01 = {
  vehicle_uid: '1',
  imei: '356307042441013',
  device_type: 'FMB920',
  config: '12',
  veh_grp: 'Long haul',
  name: 'Truck 01',
  reg_num: 'CA 123-456',
};

/** Operator 1 of the demo, as getOperator and getOperators answer it. */
export const THABO_MOKOENA = {
  operator_uid: 1,
  id_number: '8001015009087',
  fullname: 'Thabo Mokoena',
  tag_id: '01A2B3C4',
  default_trip_type: 0,
  mobile_number: '+27 82 555 0101',
  home_number: '',
  driver_licence_expiry_datetime: '2027-05-31 00:00:00',
  pdp_expiry_datetime: '2026-12-31 00:00:00',
  dgp_expiry_datetime: '2001-01-01 00:00:00',
  mc_expiry_datetime: '2001-01-01 00:00:00',
  employee_number: 'EMP-0042',
  current_points: '0',
  home_address: '',
  next_of_kin: '',
  next_of_kin_contact_number: '',
  active_flag: 1,
  email_address: '',
};

/** Saved location 1 of the demo, the depot polygon, as getUserLocation and getUserLocations answer it. */
export const DEPOT_MIDRAND = {
  user_location_uid: 1,
  latitude: -25.9992,
  longitude: 28.1263,
  description: 'Depot Midrand',
  icon: '',
  color: 'green',
  radius: 0.4,
  location_type: 'polygon',
  points: DEPOT_POLYGON_TEXT,
  speed: 0,
  no_go: 0,
  only_push: 0,
};

/** Slip 1 of the demo, the van's fuel slip, as getExpenseSlip and getExpenseSlips answer it. */
export const VAN_FUEL_SLIP = {
  slip_uid: 1,
  vehicle_uid: 2,
  type: 2,
  type_name: 'Fuel',
  slip_number: 'ENG-2211',
  slip_qty: '38.500',
  slip_amount: '812.40',
  event_datetime: '2026-11-22 11:55:00',
  comment: 'Engen Woodmead',
};

/** The job card document addJobCard sends and getJobCardHistory's first version holds. */
export const JOB_CARD_AS_ADDED = {
  CompanyId: 'ACME-LOGISTICS',
  ReferenceNumber: 'WO-2026-1187',
  Consignee: 'Sandton City Mall',
  SiteName: 'Loading bay 3',
  ContactNumber: '+27 11 555 0142',
  DueDate: '2026-11-24 10:00:00',
  IsDelivery: 1,
  Instructions: 'Call the site manager on arrival',
};

/** The document editJobCard replaces it with. */
export const JOB_CARD_AS_EDITED = {
  CompanyId: 'ACME-LOGISTICS',
  ReferenceNumber: 'WO-2026-1187',
  Consignee: 'Sandton City Mall',
  SiteName: 'Loading bay 5',
  ContactNumber: '+27 11 555 0142',
  DueDate: '2026-11-24 14:00:00',
  IsDelivery: 1,
  Instructions: 'Bay 3 closed: use bay 5',
};

/** Job card 1 as getJobCard and getJobCards answer it. */
export const JOB_CARD = {
  job_card_uid: 1,
  created_datetime: '2026-11-23 05:31:22',
  source_ip: '127.0.0.1',
  external_reference: 'WO-2026-1187',
  payload: JOB_CARD_AS_ADDED,
};

/** Route 1 as addRoute answers it and getRoute reads it back. */
export const MORNING_DELIVERIES = {
  route_uid: 1,
  route_name: 'Morning deliveries',
  vehicle_uid: 2,
  directions_source: 'estimate',
  stops: [
    { seq: 1, user_location_uid: 1, description: 'Depot Midrand', latitude: -25.9992, longitude: 28.1263, created: false },
    { seq: 2, user_location_uid: 2, description: 'Client Sandton', latitude: -26.1076, longitude: 28.0567, created: false },
    { seq: 3, user_location_uid: 6, description: 'Client Rosebank', latitude: -26.1452, longitude: 28.0412, created: true },
    { seq: 4, user_location_uid: 1, description: 'Depot Midrand', latitude: -25.9992, longitude: 28.1263, created: false },
  ],
  legs: [
    { from_seq: 1, to_seq: 2, distance_km: 13.915, duration_s: 1002 },
    { from_seq: 2, to_seq: 3, distance_km: 4.458, duration_s: 321 },
    { from_seq: 3, to_seq: 4, distance_km: 18.325, duration_s: 1319 },
  ],
  totals: { distance_km: 36.698, duration_s: 2642 },
};
