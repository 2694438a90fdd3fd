/**
 * Every numeric input, sent as a number DynamoDB cannot store (below 1e-130, above 1e126, more than
 * 38 significant digits): the operation either keeps a normalised value it can read back, or refuses
 * with a 400 naming the parameter and writes nothing. Never a 500.
 */
import { describe, expect, it } from 'vitest';
import { type ApiResponse, api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { anOperator } from '../support/operators-builders.ts';
import { DEPOT, givenUserLocation, SQUARE_AROUND_DEPOT } from '../support/user-locations-builders.ts';

/** Values DynamoDB refuses as numbers, as JSON numbers and as decimal text. */
const UNSTORABLE: Array<[string, number | string]> = [
  ['1e-200 (a JSON number)', 1e-200],
  ['-1e-131 (a JSON number)', -1e-131],
  ['1e200 (a JSON number)', 1e200],
  ['the largest double', Number.MAX_VALUE],
  ['200 zeros then a 1 after the point', `0.${'0'.repeat(199)}1`],
  ['a 1 and 130 zeros', `1${'0'.repeat(130)}`],
  ['42 significant digits', `12.${'3'.repeat(40)}`],
];

interface Target {
  operation: string;
  /** the name the refusal must mention */
  parameter: string;
  /** the request's JSON body with the value in place */
  body: (value: number | string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** what the operation has written for the user, to prove a refusal writes nothing */
  written: () => Promise<unknown>;
  /** for a parameter that may be normalised: the value as read back after a success, and what it must be */
  kept?: { read: (res: ApiResponse) => Promise<unknown>; expected: (value: number | string) => unknown };
}

/** The value rounded to `decimals` places, worked out apart from the service's own rounding (and -0 as 0). */
const toDecimals =
  (decimals: number) =>
  (value: number | string): number =>
    Math.round(Number(value) * 10 ** decimals) / 10 ** decimals + 0;
const COORDINATE = toDecimals(7);
/** text parameters keep a JSON number as JavaScript spells it, and decimal text as sent */
const AS_TEXT = (value: number | string): string => String(value);

/** A fresh user and the records each target needs, per case: no case sees another's writes. */
async function givenTargets(): Promise<{ user: TestUser; targets: Target[] }> {
  const user = await givenUser();
  const vehicle = await givenVehicle(user);
  const [type, location, slip, eventUid] = await Promise.all([
    givenExpenseType(user, 'Tolls'),
    givenUserLocation(user),
    givenSlip(user, vehicle, { type: 2 }),
    givenFuelFill(vehicle),
  ]);
  const read =
    (operation: string, params: Record<string, unknown> = {}) =>
    async () =>
      readBack(user, operation, params);
  const locations = read('getUserLocations');
  const locationRead = async (uid: number): Promise<Record<string, any>> =>
    (await api.get('getUserLocation', { api_key: user.key, user_location_uid: uid })).body.location;
  /** a field of the location the request added (or edited, when `uid` is given) */
  const locationField = (field: string, uid?: number) => async (res: ApiResponse) =>
    (await locationRead(uid ?? res.body.user_location_uid))[field];
  const firstVertexLat = (uid?: number) => async (res: ApiResponse) =>
    JSON.parse((await locationRead(uid ?? res.body.user_location_uid)).points)[0].lat;
  /** the route's first stop is a location of its own */
  const firstStopField = (field: string) => async (res: ApiResponse) => (await locationRead(res.body.stops[0].user_location_uid))[field];
  const typeName = async (res: ApiResponse) =>
    (await api.get('getExpenseTypes', { api_key: user.key })).body.expense_types.find(
      (type: { type: number }) => type.type === res.body.type,
    )?.name;
  const place = { description: 'Depot', latitude: DEPOT.lat, longitude: DEPOT.lng };
  const vertices = (lat: number | string) => [{ lat, lng: 28.03 }, ...SQUARE_AROUND_DEPOT.slice(1)];
  const slips = read('getExpenseSlips', { vehicle_uid: vehicle.vehicleUid, start_date: '2026-01-01', end_date: '2026-12-31' });
  const fills = read('getFuelFillReport', { vehicle_uid: vehicle.vehicleUid, start_date: '2026-11-01', end_date: '2026-11-30' });
  const newSlip = { vehicle_uid: vehicle.vehicleUid, type, amount: '10.00', event_datetime: '2026-11-01 08:00:00' };
  const stops = (lat: number | string, lng: number | string) => [
    { lat, lng },
    { lat: -26.1, lng: 28.1 },
  ];
  const edit = { user_location_uid: location.userLocationUid };
  const targets: Target[] = [
    {
      operation: 'addUserLocation',
      parameter: 'latitude',
      body: (value) => ({ ...place, latitude: value }),
      written: locations,
      kept: { read: locationField('latitude'), expected: COORDINATE },
    },
    {
      operation: 'addUserLocation',
      parameter: 'longitude',
      body: (value) => ({ ...place, longitude: value }),
      written: locations,
      kept: { read: locationField('longitude'), expected: COORDINATE },
    },
    {
      operation: 'addUserLocation',
      parameter: 'radius',
      body: (value) => ({ ...place, radius: value }),
      written: locations,
      kept: { read: locationField('radius'), expected: toDecimals(6) },
    },
    {
      operation: 'addUserLocation',
      parameter: 'speed',
      body: (value) => ({ ...place, speed: value }),
      written: locations,
      kept: { read: locationField('speed'), expected: toDecimals(2) },
    },
    {
      operation: 'addUserLocation',
      parameter: 'points',
      body: (value) => ({ ...place, location_type: 'polygon', points: vertices(value) }),
      written: locations,
      kept: { read: firstVertexLat(), expected: COORDINATE },
    },
    {
      operation: 'editUserLocation',
      parameter: 'latitude',
      body: (value) => ({ ...edit, latitude: value }),
      written: locations,
      kept: { read: locationField('latitude', edit.user_location_uid), expected: COORDINATE },
    },
    {
      operation: 'editUserLocation',
      parameter: 'longitude',
      body: (value) => ({ ...edit, longitude: value }),
      written: locations,
      kept: { read: locationField('longitude', edit.user_location_uid), expected: COORDINATE },
    },
    {
      operation: 'editUserLocation',
      parameter: 'radius',
      body: (value) => ({ ...edit, radius: value }),
      written: locations,
      kept: { read: locationField('radius', edit.user_location_uid), expected: toDecimals(6) },
    },
    {
      operation: 'editUserLocation',
      parameter: 'speed',
      body: (value) => ({ ...edit, speed: value }),
      written: locations,
      kept: { read: locationField('speed', edit.user_location_uid), expected: toDecimals(2) },
    },
    {
      operation: 'editUserLocation',
      parameter: 'points',
      body: (value) => ({ ...edit, location_type: 'polygon', points: vertices(value) }),
      written: locations,
      kept: { read: firstVertexLat(edit.user_location_uid), expected: COORDINATE },
    },
    { operation: 'editUserLocation', parameter: 'user_location_uid', body: (value) => ({ user_location_uid: value }), written: locations },
    {
      operation: 'addRoute',
      parameter: 'lat',
      body: (value) => ({ route_name: 'R', stops: stops(value, 28) }),
      written: read('getRoutes'),
      kept: { read: firstStopField('latitude'), expected: COORDINATE },
    },
    {
      operation: 'addRoute',
      parameter: 'lng',
      body: (value) => ({ route_name: 'R', stops: stops(-26, value) }),
      written: read('getRoutes'),
      kept: { read: firstStopField('longitude'), expected: COORDINATE },
    },
    {
      operation: 'addRoute',
      parameter: 'vehicle_uid',
      body: (value) => ({ route_name: 'R', stops: stops(-26, 28), vehicle_uid: value }),
      written: read('getRoutes'),
    },
    { operation: 'addExpenseSlip', parameter: 'vehicle_uid', body: (value) => ({ ...newSlip, vehicle_uid: value }), written: slips },
    { operation: 'addExpenseSlip', parameter: 'type', body: (value) => ({ ...newSlip, type: value }), written: slips },
    { operation: 'addExpenseSlip', parameter: 'amount', body: (value) => ({ ...newSlip, amount: value }), written: slips },
    { operation: 'addExpenseSlip', parameter: 'qty', body: (value) => ({ ...newSlip, qty: value }), written: slips },
    { operation: 'editExpenseSlip', parameter: 'amount', body: (value) => ({ slip_uid: slip.slipUid, amount: value }), written: slips },
    { operation: 'editExpenseSlip', parameter: 'qty', body: (value) => ({ slip_uid: slip.slipUid, qty: value }), written: slips },
    { operation: 'editExpenseSlip', parameter: 'type', body: (value) => ({ slip_uid: slip.slipUid, type: value }), written: slips },
    { operation: 'addFuelFillSlip', parameter: 'event_uid', body: (value) => ({ event_uid: value, qty: '50' }), written: fills },
    { operation: 'addFuelFillSlip', parameter: 'qty', body: (value) => ({ event_uid: eventUid, qty: value }), written: fills },
    {
      operation: 'addFuelFillSlip',
      parameter: 'amount',
      body: (value) => ({ event_uid: eventUid, qty: '50', amount: value }),
      written: fills,
    },
    {
      operation: 'addOperator',
      parameter: 'default_trip_type',
      body: (value) => anOperator({ default_trip_type: value }),
      written: read('getOperators'),
    },
    {
      operation: 'addExpenseType',
      parameter: 'expense_name',
      body: (value) => ({ expense_name: value }),
      written: read('getExpenseTypes'),
      kept: { read: typeName, expected: AS_TEXT },
    },
  ];
  return { user, targets };
}

/** A read that must succeed whatever was written. */
async function readBack(user: TestUser, operation: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await api.get(operation, { api_key: user.key, ...params });
  expect(res.status, `${operation} after the write`).toBe(200);
  return res.body;
}

const postJson = (user: TestUser, operation: string, body: Record<string, unknown>): Promise<ApiResponse> =>
  api.post(operation, {}, { headers: { 'Content-Type': 'application/json', 'X-Api-Key': user.key }, rawBody: JSON.stringify(body) });

describe('numbers DynamoDB cannot store', () => {
  it.each(UNSTORABLE)('are normalised or refused by name in every numeric parameter: %s', async (_case, value) => {
    const { user, targets } = await givenTargets();
    for (const target of targets) {
      // Prepare
      const before = await target.written();
      // Act
      const res = await postJson(user, target.operation, await target.body(value));
      // Assess
      const where = `${target.operation} ${target.parameter}`;
      expect([200, 400], `${where}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 400) {
        expect(res.body.error_msg, where).toContain(target.parameter);
        expect(await target.written(), `${where} wrote nothing`).toEqual(before);
      } else {
        expect(target.kept, `${where} answered 200: what it kept must be read back`).toBeDefined();
        expect(await target.kept?.read(res), `${where} as read back`).toEqual(target.kept?.expected(value));
      }
    }
  });

  it('keeps a coordinate to 7 decimals and a tiny one as 0, as stored and read back', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await postJson(user, 'addUserLocation', {
      description: 'Exact',
      latitude: 1e-200,
      longitude: `28.${'1'.repeat(40)}`,
      radius: '0.0000004999',
      speed: 1e-131,
    });
    // Assess
    expect(res).toBeError(400, 'radius must be a number greater than 0 and at most 20000 (km)');
    const saved = await postJson(user, 'addUserLocation', {
      description: 'Exact',
      latitude: 1e-200,
      longitude: `28.${'1'.repeat(40)}`,
      speed: 1e-131,
    });
    expect(saved).toBeSuccess();
    const read = await api.get('getUserLocation', { api_key: user.key, user_location_uid: saved.body.user_location_uid });
    expect(read.body.location).toMatchObject({ latitude: 0, longitude: 28.1111111, speed: 0, radius: 1 });
  });

  it('keeps polygon vertices to 7 decimals', async () => {
    // Prepare
    const user = await givenUser();
    const points = [
      { lat: -26.19, lng: 28.123456789 },
      { lat: -1e-150, lng: 28.06 },
      { lat: -26.22, lng: 28.06 },
    ];
    // Act
    const saved = await postJson(user, 'addUserLocation', {
      ...{ description: 'Yard', latitude: -26.2, longitude: 28.04 },
      location_type: 'polygon',
      points,
    });
    // Assess
    expect(saved).toBeSuccess();
    const read = await api.get('getUserLocation', { api_key: user.key, user_location_uid: saved.body.user_location_uid });
    expect(JSON.parse(read.body.location.points)).toEqual([
      { lat: -26.19, lng: 28.1234568 },
      { lat: 0, lng: 28.06 },
      { lat: -26.22, lng: 28.06 },
    ]);
  });

  it('extracts no job-card coordinate DynamoDB cannot store, keeping the payload', async () => {
    // Prepare
    const user = await givenUser();
    const payload =
      '{"ReferenceNumber":"R-1","Latitude":1e-200,"Longitude":1e200,"PlannedSequence":1e300,"TripStopId":12345678901234567890}';
    // Act
    const res = await api.post(
      'addJobCard',
      {},
      { headers: { 'Content-Type': 'application/json', 'X-Api-Key': user.key }, rawBody: payload },
    );
    // Assess
    expect(res).toBeSuccess();
    const read = await api.get('getJobCard', { api_key: user.key, job_card_uid: res.body.job_card_uid });
    expect(read).toBeSuccess();
    expect(read.body.job_card).toMatchObject({ job_card_uid: res.body.job_card_uid, external_reference: 'R-1' });
    // the stored document comes back byte for byte: numbers as spelled, none rounded to what DynamoDB could hold
    expect(read.raw.toString('utf8')).toContain(`"payload":${payload}`);
  });
});
