/**
 * What the OpenAPI document says of each operation beyond its schemas: a description written from docs/,
 * and a request and a success example. The examples are the seeded demo's (`npm start` on an empty .local/):
 * run in the document's order (add before edit before delete within an area), every one succeeds, so a
 * Postman import of the document runs green after its apiKey is set. The ids are the ones a fresh demo
 * hands out: vehicles 1-3, saved locations 1-4, operators 1-2, expense types 3 (Tolls) and 4 (Parking),
 * slips 1-3, and fuel fills 1-4 (3, the van's, without a slip); records the examples create come next.
 */
import type { OperationName } from './operations.ts';

export interface OperationExamples {
  /** what the operation does, for integrators (the summary is its one line) */
  description: string;
  /** the parameters: the query string of a GET, the body of a POST (for job cards, the document itself) */
  request: Record<string, unknown>;
  /** parameters that go in the query string of a POST whose body is a document (editJobCard's job_card_uid) */
  query?: Record<string, unknown>;
  /** the fields a success adds to the envelope; absent for an answer that is not JSON (getLiveMap's PNG) */
  response?: Record<string, unknown>;
}

/** The demo depot's polygon as a saved location reads it back: its points' JSON text. */
const DEPOT_POLYGON_TEXT = JSON.stringify([
  { lat: -26.0022, lng: 28.1293 },
  { lat: -26.0022, lng: 28.1233 },
  { lat: -25.996199999999998, lng: 28.1233 },
  { lat: -25.996199999999998, lng: 28.1293 },
]);

/** Operator 1 of the demo, as getOperator and getOperators answer it. */
const THABO_MOKOENA = {
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
const DEPOT_MIDRAND = {
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
const VAN_FUEL_SLIP = {
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
const JOB_CARD_AS_ADDED = {
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
const JOB_CARD_AS_EDITED = {
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
const JOB_CARD = {
  job_card_uid: 1,
  created_datetime: '2026-11-23 05:31:22',
  source_ip: '127.0.0.1',
  external_reference: 'WO-2026-1187',
  payload: JOB_CARD_AS_ADDED,
};

/** Route 1 as addRoute answers it and getRoute reads it back. */
const MORNING_DELIVERIES = {
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

/** Partial, so an operation added to the registry without its examples is caught by the OpenAPI test rather than at type level only. */
export const operationExamples: Partial<Record<OperationName, OperationExamples>> = {
  getVehicles: {
    description:
      "The vehicles linked to the key's user, each with its details and current odometer. `filter` narrows them to a comma-delimited " +
      'list of IMEIs; blanks are ignored and an IMEI the user has no vehicle for is simply not listed. Every value of the record is ' +
      "text or null, as the spec's records are.",
    request: { filter: '356307042441013,356307042441021', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013,356307042441021',
      cnt: 2,
      vehicles: [
        {
          vehicle_uid: '1',
          imei: '356307042441013',
          device_type: 'FMB920',
          config: '12',
          veh_grp: 'Long haul',
          name: 'Truck 01',
          reg_num: 'CA 123-456',
          veh_make: 'Isuzu',
          veh_model: 'FTR 850',
          veh_model_year: '2021',
          veh_vin: 'JALFTR34HM7000123',
          start_odo: '120345',
          start_odo_date: '2026-01-15',
          start_hours: '4210',
          start_hours_date: '2026-01-15',
          licence_expire_date: '2027-03-31',
          fuel_capacity: '200',
          fuel_factor: '1',
          curent_odo: '120448.8',
          current_odo_date: '2026-11-22 23:59:03',
        },
        {
          vehicle_uid: '2',
          imei: '356307042441021',
          device_type: 'FMB920',
          config: '12',
          veh_grp: 'Deliveries',
          name: 'Van 02',
          reg_num: 'CA 234-567',
          veh_make: 'Toyota',
          veh_model: 'Quantum 2.8 GL',
          veh_model_year: '2022',
          veh_vin: 'AHTSS22P907001234',
          start_odo: '64210',
          start_odo_date: '2026-02-01',
          start_hours: '1830',
          start_hours_date: '2026-02-01',
          licence_expire_date: '2027-06-30',
          fuel_capacity: '70',
          fuel_factor: '1.02',
          curent_odo: '64292.5',
          current_odo_date: '2026-11-22 23:59:08',
        },
      ],
    },
  },
  getLiveData: {
    description:
      'The last known position and telemetry of each linked vehicle (or of the IMEIs in `filter`), as the positions pipeline last ' +
      "recorded them. Times are in the user's GMT offset; a vehicle that never reported has null position fields.",
    request: { filter: '356307042441013', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013',
      cnt: 1,
      vehicles: [
        {
          vehicle_uid: '1',
          imei: '356307042441013',
          device_type: 'FMB920',
          config: '12',
          veh_grp: 'Long haul',
          name: 'Truck 01',
          reg_num: 'CA 123-456',
          last_response: '2026-11-23 03:29:58',
          gps_datetime: '2026-11-22 23:59:03',
          latitude: '-25.99919',
          longitude: '28.126301',
          speed: '0',
          heading: '31',
          driver_id: null,
          supp_volt: '12.65',
          int_batt_volt: '4.1',
          int_temp: '28',
          ext_temp: null,
          fuel_value: '196.3',
          fuel_percent: '98.2',
        },
      ],
    },
  },
  getLiveMap: {
    description:
      "A PNG map of the linked vehicles (or the IMEIs in `filter`) at their last positions, with the user's saved locations. The " +
      "picture comes from the deployment's provider: Amazon Location static maps (the AWS default; IAM, `map_api_key` unused), " +
      'Google Static Maps (with `map_api_key`), an XYZ tile server (its key from the deployment or `map_api_key`), or the built-in ' +
      "offline map (Natural Earth land and borders, GeoNames towns, the user's zones, vehicles grouped when a few pixels apart, " +
      'scale bar and legend; no network). The map is centred on the vehicles; when they do not all fit at the zoom, on the most that ' +
      'do, and the legend says how many are outside. Pictures are cached in S3 by a hash of what they show, never of the key. 404 ' +
      'when no vehicle has a position yet; 502 naming the provider when it fails (nothing is cached then).',
    request: { map_api_key: 'local', filter: '356307042441013,356307042441021', width: 640, height: 480, zoom: 11 },
  },
  getTrips: {
    description:
      'The trips the positions pipeline detected for each linked vehicle (or the IMEIs in `filter`) between start_date and end_date, ' +
      "both calendar days in the user's GMT offset and both included. Each trip has its start and stop time, place and odometer, " +
      'distance, duration, top speed, fuel levels and driver.',
    request: { filter: '356307042441013', start_date: '2026-11-22', end_date: '2026-11-22', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013',
      start_date: '2026-11-22',
      end_date: '2026-11-22',
      cnt: 1,
      vehicles: [
        {
          vehicle_uid: '1',
          imei: '356307042441013',
          trip_cnt: 7,
          trips: [
            {
              trip_uid: '1',
              start_time: '2026-11-22 06:30:00',
              stop_time: '2026-11-22 06:54:24',
              start_odo: 120345,
              distance: '17.60',
              duration: '1464',
              max_speed: '101',
              fuel_start: '187.2',
              fuel_end: '180.6',
              start_location_lat: '-25.999177',
              start_location_lng: '28.126312',
              start_location: 'Depot Midrand',
              stop_location_lat: '-26.10147',
              stop_location_lng: '28.23079',
              stop_location: 'Client Kempton Park',
              driver_name: 'Thabo Mokoena',
              driver_tag_id: '01A2B3C4',
            },
            {
              trip_uid: '4',
              start_time: '2026-11-22 07:45:00',
              stop_time: '2026-11-22 08:08:35',
              start_odo: 120362.6,
              distance: '19.30',
              duration: '1415',
              max_speed: '100',
              fuel_start: '180.8',
              fuel_end: '175.1',
              start_location_lat: '-26.101505',
              start_location_lng: '28.230829',
              start_location: 'Client Kempton Park',
              stop_location_lat: '-26.107595',
              stop_location_lng: '28.056696',
              stop_location: 'Client Sandton',
              driver_name: 'Thabo Mokoena',
              driver_tag_id: '01A2B3C4',
            },
          ],
        },
      ],
    },
  },
  getPositions: {
    description:
      "Trip playback: the positions a linked vehicle reported between start_datetime and end_datetime (the user's local time, at " +
      'most 7 days apart), oldest first, as the pipeline stored them, whatever order they arrived in. gps_datetime is GMT+0, as in ' +
      'getLiveData. At most `limit` positions (default and maximum 10,000) are answered; when more exist, next_start_datetime is the ' +
      'start_datetime of the next call.',
    request: { vehicle_uid: 1, start_datetime: '2026-11-22 06:30:00', end_datetime: '2026-11-22 06:31:00', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 1,
      imei: '356307042441013',
      start_datetime: '2026-11-22 06:30:00',
      end_datetime: '2026-11-22 06:31:00',
      cnt: 2,
      positions: [
        {
          gps_datetime: '2026-11-22 04:30:00',
          latitude: -25.999177,
          longitude: 28.126312,
          speed: 0,
          heading: 31,
          ignition: 1,
          fuel_value: 187.2,
          odometer: 120345,
          driver_id: '01A2B3C4',
          supp_volt: 12.65,
          int_batt_volt: 4.1,
          int_temp: 28,
          ext_temp: null,
        },
        {
          gps_datetime: '2026-11-22 04:30:30',
          latitude: -25.998713,
          longitude: 28.127805,
          speed: 24,
          heading: 64,
          ignition: 1,
          fuel_value: 187.2,
          odometer: 120345.2,
          driver_id: '01A2B3C4',
          supp_volt: 13.9,
          int_batt_volt: 4.1,
          int_temp: 28,
          ext_temp: null,
        },
      ],
    },
  },
  getExpenseTypes: {
    description: "Fuel (type 2, built in for everyone) and the user's own expense types, by type. Deleted types are not listed.",
    request: {},
    response: {
      cnt: 3,
      expense_types: [
        { type: 2, name: 'Fuel' },
        { type: 3, name: 'Tolls' },
      ],
    },
  },
  addExpenseType: {
    description:
      'Creates an expense type for the user and answers it with its new type number. Names are unique per user, compared trimmed and ' +
      'case-insensitively, and "Fuel" is taken by type 2.',
    request: { expense_name: 'Fines' },
    response: { type: 5, name: 'Fines' },
  },
  editExpenseType: {
    description:
      "Renames one of the user's expense types; old slips show the new name. Fuel (type 2) cannot be renamed; the new name must not " +
      "be another of the user's types.",
    request: { type: 5, expense_name: 'Traffic fines' },
    response: { type: 5, name: 'Traffic fines' },
  },
  deleteExpenseType: {
    description:
      "Soft-deletes one of the user's expense types: it is no longer listed nor accepted for new slips, while existing slips keep it " +
      'and its name.',
    request: { type: 5 },
    response: { type: 5 },
  },
  addExpenseSlip: {
    description:
      "Records a slip on a vehicle linked to the key: a fuel slip (type 2) or one of the user's expense types. amount and qty are " +
      "decimal text (a JSON number is read as its text) and are stored exactly as given; event_datetime is the user's local time, a " +
      'bare date meaning its midnight.',
    request: {
      vehicle_uid: 1,
      type: 3,
      amount: '61.00',
      event_datetime: '2026-11-22 16:40:00',
      qty: '1',
      slip_number: 'N1-0954',
      comment: 'Midrand plaza, return',
    },
    response: { slip_uid: 4 },
  },
  getExpenseSlip: {
    description: "One slip by slip_uid, of any type, fill slips included, when its vehicle is linked to the key's user.",
    request: { slip_uid: 1 },
    response: {
      slip: VAN_FUEL_SLIP,
    },
  },
  getExpenseSlips: {
    description:
      "A vehicle's slips (expense, fuel and fill slips) whose event_datetime falls on the user's calendar days from start_date to " +
      'end_date, both included.',
    request: { vehicle_uid: 2, start_date: '2026-11-01', end_date: '2026-11-30', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 2,
      start_date: '2026-11-01 00:00:00',
      end_date: '2026-11-30 23:59:59',
      cnt: 1,
      slips: [VAN_FUEL_SLIP],
    },
  },
  editExpenseSlip: {
    description:
      "Changes a slip: only the fields sent change, the others keep their value. A slip's type is fixed: `type` may be sent only as " +
      "the slip's own type (a record read back and sent whole), any other type is refused.",
    request: { slip_uid: 4, amount: '64.50', comment: 'Midrand plaza, return (new tariff)' },
    response: { slip_uid: 4 },
  },
  deleteExpenseSlip: {
    description: 'Deletes a slip for good. Deleting a fill slip frees its fuel fill for a new one (addFuelFillSlip).',
    request: { slip_uid: 4 },
    response: { slip_uid: 4 },
  },
  getOperators: {
    description: "The user's operators (drivers), each with its tag_id, contact details, expiry dates and active flag.",
    request: {},
    response: {
      cnt: 2,
      operators: [
        THABO_MOKOENA,
        {
          operator_uid: 2,
          id_number: '9106230234081',
          fullname: 'Anele Dlamini',
          tag_id: '01D5E6F7',
          default_trip_type: 0,
          mobile_number: '+27 83 555 0199',
          home_number: '',
          driver_licence_expiry_datetime: '2027-05-31 00:00:00',
          pdp_expiry_datetime: '2026-12-31 00:00:00',
          dgp_expiry_datetime: '2001-01-01 00:00:00',
          mc_expiry_datetime: '2001-01-01 00:00:00',
          employee_number: 'EMP-0057',
          current_points: '0',
          home_address: '',
          next_of_kin: '',
          next_of_kin_contact_number: '',
          active_flag: 1,
          email_address: '',
        },
      ],
    },
  },
  getOperator: {
    description: "One of the user's operators by operator_uid.",
    request: { operator_uid: 1 },
    response: {
      operator: THABO_MOKOENA,
    },
  },
  addOperator: {
    description:
      "Creates an operator (driver) for the user. fullname, id_number and tag_id are required; tag_id (the driver's identification " +
      "tag, read by the tracking devices) is unique across all users. Fields left out take the spec's defaults: active, no expiry " +
      '(2001-01-01), empty text.',
    request: {
      fullname: 'Sipho Ndlovu',
      id_number: '8507125800086',
      tag_id: '01F8A9B0',
      mobile_number: '+27 84 555 0123',
      employee_number: 'EMP-0063',
      active_flag: 1,
      driver_licence_expiry_datetime: '2028-02-29',
      email_address: 'sipho.ndlovu@example.com',
    },
    response: { operator_uid: 3 },
  },
  editOperator: {
    description:
      'Changes an operator: only the fields sent change. fullname, id_number and tag_id may be left out but not blanked; a new ' +
      "tag_id must not be anyone else's.",
    request: { operator_uid: 3, mobile_number: '+27 84 555 0124', active_flag: '0' },
    response: { operator_uid: 3 },
  },
  deleteOperator: {
    description: "Deletes an operator for good and frees its tag_id. Trips and fills keep the driver's name they were recorded with.",
    request: { operator_uid: 3 },
    response: { operator_uid: 3 },
  },
  getUserLocations: {
    description:
      "The user's saved locations: points (a centre and a radius in km) and polygons (geofences). The positions pipeline, the live " +
      'map and routes name places from them.',
    request: {},
    response: {
      cnt: 4,
      locations: [
        DEPOT_MIDRAND,
        {
          user_location_uid: 2,
          latitude: -26.1076,
          longitude: 28.0567,
          description: 'Client Sandton',
          icon: '',
          color: 'blue',
          radius: 0.4,
          location_type: 'point',
          points: '',
          speed: 0,
          no_go: 0,
          only_push: 0,
        },
      ],
    },
  },
  getUserLocation: {
    description: "One of the user's saved locations by user_location_uid.",
    request: { user_location_uid: 1 },
    response: {
      location: DEPOT_MIDRAND,
    },
  },
  addUserLocation: {
    description:
      'Saves a point (the default: latitude, longitude and a radius in km) or a polygon (location_type polygon with at least 3 ' +
      "`points`). latitude and longitude are the polygon's reference point. speed is the zone's speed limit in km/h (0: none); no_go " +
      'and only_push are 0/1 flags.',
    request: { description: 'Client Centurion', latitude: -25.8603, longitude: 28.1894, radius: 0.3, color: 'orange', speed: 40 },
    response: { user_location_uid: 5 },
  },
  editUserLocation: {
    description:
      'Changes a saved location: only the fields sent change. Turning a point into a polygon needs its `points`; turning a polygon ' +
      'into a point drops them. A record read back from getUserLocation may be sent back as it is.',
    request: {
      user_location_uid: 5,
      location_type: 'polygon',
      points: [
        { lat: -25.8615, lng: 28.188 },
        { lat: -25.8615, lng: 28.1908 },
        { lat: -25.8591, lng: 28.1908 },
        { lat: -25.8591, lng: 28.188 },
      ],
      no_go: 0,
      only_push: 1,
    },
    response: { user_location_uid: 5 },
  },
  deleteUserLocation: {
    description: 'Deletes a saved location. Routes keep the stops they were made with.',
    request: { user_location_uid: 5 },
    response: { user_location_uid: 5 },
  },
  getFuelFillReport: {
    description:
      "The fuel fills the pipeline detected for a vehicle on the user's calendar days from start_date to end_date (at most 366 " +
      'days), each with its captured slip (or nulls), the difference between slip and measured litres, and the distance, time and ' +
      'fuel used since the previous fill with the consumption they give.',
    request: { vehicle_uid: 1, start_date: '2026-11-01', end_date: '2026-11-30', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 1,
      imei: '356307042441013',
      vehicle_name: 'Truck 01',
      registration_number: 'CA 123-456',
      fuel_factor: 1,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      cnt: 2,
      fills: [
        {
          event_uid: 1,
          event_date: '2026-11-22',
          event_time: '06:00:07',
          slip_number: 'DEPOT-0001',
          slip_uid: 3,
          slip_qty: '125.6',
          slip_amount: '2868.98',
          slip_diff: 0,
          fill_qty: 125.6,
          operator_uid: null,
          operator_name: null,
          odo: 120345,
          hours: 4210,
          fuel_level_before: 61.8,
          fuel_level_after: 187.4,
          latitude: -25.999244,
          longitude: 28.126298,
          location: 'Depot Midrand',
          trip_uid: null,
          distance: null,
          duration: null,
          fuel_used: null,
          consumption_km_per_l: null,
          consumption_l_per_hr: null,
        },
        {
          event_uid: 4,
          event_date: '2026-11-22',
          event_time: '13:49:25',
          slip_number: null,
          slip_uid: null,
          slip_qty: null,
          slip_amount: null,
          slip_diff: null,
          fill_qty: 45.1,
          operator_uid: null,
          operator_name: null,
          odo: 120441.7,
          hours: 4212.1,
          fuel_level_before: 154.9,
          fuel_level_after: 199.9,
          latitude: -26.053542,
          longitude: 28.093632,
          location: 'Fuel stop Woodmead',
          trip_uid: 13,
          distance: 96.7,
          duration: 7600,
          fuel_used: 32.5,
          consumption_km_per_l: 2.97,
          consumption_l_per_hr: 15.41,
        },
      ],
    },
  },
  addFuelFillSlip: {
    description:
      "Captures the slip of a detected fuel fill: a fill slip (type 1) dated at the fill, on the fill's vehicle. One per fill: a " +
      'second answers 409 naming the existing slip, which editExpenseSlip or deleteExpenseSlip change.',
    request: { event_uid: 3, qty: '38.7', amount: '884.30', slip_number: 'DEPOT-0002' },
    response: { slip_uid: 5, event_uid: 3 },
  },
  addJobCard: {
    description:
      'Stores a job card document from an external system verbatim: a raw JSON object body, or a form whose `payload` field holds ' +
      'its JSON text. Recognised keys (CompanyId, ReferenceNumber, DueDate, IsDelivery, ...) are extracted for filtering; a value of ' +
      "the wrong type or size is simply not extracted, never a reason to refuse the card. ReferenceNumber becomes the card's " +
      'external_reference.',
    request: JOB_CARD_AS_ADDED,
    response: { job_card_uid: 1, external_reference: 'WO-2026-1187' },
  },
  getJobCards: {
    description:
      "The 1000 most recent job cards of the user, newest first, optionally from and to a calendar day (in the user's offset, both " +
      'included) and with one external reference.',
    request: { from_date: '2026-11-01', to_date: '2026-12-31', external_reference: 'WO-2026-1187', limit: 100, cursor: '' },
    response: {
      cnt: 1,
      job_cards: [JOB_CARD],
    },
  },
  getJobCard: {
    description:
      "One job card by job_card_uid with its document exactly as stored, its external reference, creation time (in the user's " +
      'offset) and the address it came from.',
    request: { job_card_uid: 1 },
    response: {
      job_card: JOB_CARD,
    },
  },
  editJobCard: {
    description:
      "Replaces a job card's document, keeping a snapshot of every version (getJobCardHistory). With a raw JSON body, job_card_uid " +
      'is in the query string; with a form it may be a form field too.',
    query: { job_card_uid: 1 },
    request: JOB_CARD_AS_EDITED,
    response: { job_card_uid: 1, external_reference: 'WO-2026-1187' },
  },
  getJobCardHistory: {
    description:
      'Every version of a job card, oldest first: the create and each edit, with who made it, from where and the document as it was.',
    request: { job_card_uid: 1, limit: 100, cursor: '' },
    response: {
      job_card_uid: 1,
      cnt: 2,
      history: [
        {
          history_uid: 1,
          snapshot_datetime: '2026-11-23 05:31:22',
          action: 'create',
          changed_by_user_uid: 1,
          source_ip: '127.0.0.1',
          external_reference: 'WO-2026-1187',
          payload: JOB_CARD_AS_ADDED,
        },
        {
          history_uid: 2,
          snapshot_datetime: '2026-11-23 05:31:22',
          action: 'edit',
          changed_by_user_uid: 1,
          source_ip: '127.0.0.1',
          external_reference: 'WO-2026-1187',
          payload: JOB_CARD_AS_EDITED,
        },
      ],
    },
  },
  addRoute: {
    description:
      'Creates a route through 2 to 25 ordered stops, each a saved location or a point (a saved location within 50 m is reused, ' +
      'otherwise the point is saved as a new location, described by its description or, without one, by the saved location ' +
      'containing it, its address, or the nearest town), with the driving distance and time of every leg from the configured ' +
      'directions provider. With vehicle_uid the vehicle is scheduled onto it. Everything is written in one transaction.',
    request: {
      route_name: 'Morning deliveries',
      stops: [
        { user_location_uid: 1 },
        { user_location_uid: 2 },
        { lat: -26.1452, lng: 28.0412, description: 'Client Rosebank' },
        { user_location_uid: 1 },
      ],
      vehicle_uid: 2,
    },
    response: MORNING_DELIVERIES,
  },
  getRoutes: {
    description: "The user's routes with their stop count, total distance and time, and the vehicle scheduled onto them.",
    request: {},
    response: {
      cnt: 1,
      routes: [
        {
          route_uid: 1,
          route_name: 'Morning deliveries',
          vehicle_uid: 2,
          stop_cnt: 4,
          distance_km: 36.698,
          duration_s: 2642,
          created_datetime: '2026-11-23 05:31:23',
        },
      ],
    },
  },
  getRoute: {
    description: 'One route with its stops and legs, exactly as addRoute answered it.',
    request: { route_uid: 1 },
    response: { route: MORNING_DELIVERIES },
  },
  deleteRoute: {
    description: "Deletes a route and its vehicle's schedule; the locations it saved stay.",
    request: { route_uid: 1 },
    response: { route_uid: 1 },
  },
};
