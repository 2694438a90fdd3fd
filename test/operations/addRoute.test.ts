/**
 * addRoute reads its directions provider from the environment at call time, so this file runs its own
 * API emulator in this process and sets DIRECTIONS_PROVIDER and friends here. OSRM and Google are
 * faked by node:http servers on 127.0.0.1 answering in their real wire formats.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiEmulator, startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';
import { distanceKm, type LatLng } from '../../shared/domain/geo.ts';
import { describeNearTown, nearestTown } from '../../shared/providers/gazetteer.ts';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { createApi } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { type Answer, type FakeProvider, type ProviderRequest, startFakeProvider } from '../support/fake-provider.ts';
import { northOf, rawStops, scheduledRoutes, somewhere, stopsText } from '../support/routes-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const STOPS_REQUIRED = 'stops is required and must be a JSON array of at least 2 stops';
const PROVIDER_ENV = [
  'DIRECTIONS_PROVIDER',
  'OSRM_URL',
  'GOOGLE_DIRECTIONS_URL',
  'GOOGLE_DIRECTIONS_API_KEY',
  'ESTIMATE_SPEED_KMH',
  'PROVIDER_TIMEOUT_MS',
  'AMAZON_LOCATION_ROUTES_ENDPOINT',
  'GEOCODING_PROVIDER',
  'NOMINATIM_URL',
];
const GOOGLE_KEY = 'AIzaTestKey-0123456789';
/**
 * Providers that answer get a patient timeout: a client's first call in the process (the SDK's middleware,
 * undici's pool) can outlast a short one on a loaded machine, and an aborted call never reaches the fake.
 * Only the cases about a provider that hangs shorten it, to HUNG_PROVIDER_TIMEOUT_MS.
 */
const ANSWERING_PROVIDER_TIMEOUT_MS = '5000';
const HUNG_PROVIDER_TIMEOUT_MS = '500';

let emulator: ApiEmulator;
const api = createApi(() => emulator.url);
const savedEnv = Object.fromEntries(PROVIDER_ENV.map((name) => [name, process.env[name]]));

function useEnv(values: Record<string, string | undefined>): void {
  for (const name of PROVIDER_ENV) {
    const value = values[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

function shortenTimeoutIfHung(answer: () => Answer): void {
  if (answer() === 'hang') process.env.PROVIDER_TIMEOUT_MS = HUNG_PROVIDER_TIMEOUT_MS;
}

beforeAll(async () => {
  emulator = await startApiEmulator({ port: await freePort() });
});

afterAll(async () => {
  useEnv(savedEnv);
  await emulator.close();
});

// ---- fake providers -------------------------------------------------------------------------

/** OSRM's `route` answer: leg i is 1500.4·(i+1) m and 120.4·(i+1) s. */
function osrmRoute(url: URL): Answer {
  const coordinates = (url.pathname.split('/').pop() ?? '').split(';').map((pair) => pair.split(',').map(Number));
  const legs = coordinates
    .slice(1)
    .map((_, i) => ({ steps: [], summary: '', weight: 130.1 * (i + 1), duration: 120.4 * (i + 1), distance: 1500.4 * (i + 1) }));
  const total = (field: 'duration' | 'distance' | 'weight') => legs.reduce((sum, leg) => sum + leg[field], 0);
  return {
    body: {
      code: 'Ok',
      routes: [{ legs, weight_name: 'routability', weight: total('weight'), duration: total('duration'), distance: total('distance') }],
      waypoints: coordinates.map(([lng, lat]) => ({
        hint: 'KSoKgP___38AAAA',
        distance: 4.2,
        name: 'Main Reef Road',
        location: [lng, lat],
      })),
    },
  };
}

/** Google Directions' answer: leg i is 2100·(i+1) m and 250·(i+1) s. */
function googleRoute(url: URL): Answer {
  const waypoints = url.searchParams.get('waypoints')?.split('|') ?? [];
  const points = [url.searchParams.get('origin'), ...waypoints, url.searchParams.get('destination')].map((text) => {
    const [lat, lng] = String(text).split(',').map(Number);
    return { lat, lng };
  });
  const legs = points.slice(1).map((end, i) => ({
    distance: { text: `${2.1 * (i + 1)} km`, value: 2100 * (i + 1) },
    duration: { text: `${4 * (i + 1)} mins`, value: 250 * (i + 1) },
    start_address: 'Main Reef Rd, Johannesburg, South Africa',
    end_address: 'Commissioner St, Johannesburg, South Africa',
    start_location: points[i],
    end_location: end,
    steps: [],
    traffic_speed_entry: [],
    via_waypoint: [],
  }));
  return {
    body: {
      geocoded_waypoints: points.map(() => ({ geocoder_status: 'OK', place_id: 'ChIJ5xk0Nh4MlR4RFhbDYHc4CEA', types: ['route'] })),
      routes: [
        {
          bounds: { northeast: points[0], southwest: points[points.length - 1] },
          copyrights: 'Map data ©2026 AfriGIS (Pty) Ltd',
          legs,
          overview_polyline: { points: 'nqv_Dw}ziD' },
          summary: 'M2',
          warnings: [],
          waypoint_order: waypoints.map((_, i) => i),
        },
      ],
      status: 'OK',
    },
  };
}

// ---- helpers ---------------------------------------------------------------------------------

const addRoute = (user: TestUser, params: Record<string, string | number | undefined>, options = {}) =>
  api.operation('addRoute', { api_key: user.key, route_name: 'Morning run', ...params }, options);

async function locationsOf(user: TestUser) {
  return (await api.operation('getUserLocations', { api_key: user.key })).body.locations as {
    user_location_uid: number;
    description: string;
  }[];
}

async function routesOf(user: TestUser) {
  return (await api.operation('getRoutes', { api_key: user.key })).body.routes as { route_uid: number }[];
}

async function expectNothingCreated(user: TestUser, locationCount = 0) {
  expect(await routesOf(user)).toEqual([]);
  expect(await locationsOf(user)).toHaveLength(locationCount);
}

// ---- estimate --------------------------------------------------------------------------------

describe('addRoute with the built-in estimate (the default)', () => {
  beforeEach(() => useEnv({}));

  it('creates a location per raw stop, named by the gazetteer, and answers every field with great-circle legs at 50 km/h', async () => {
    // Prepare
    const user = await givenUser();
    const stops = rawStops(3);
    // Act
    const res = await addRoute(user, { stops: stopsText(stops) });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body).sort()).toEqual([
      'directions_source',
      'error_msg',
      'legs',
      'result',
      'route_name',
      'route_uid',
      'stops',
      'totals',
      'vehicle_uid',
      'version',
    ]);
    expect(Number.isInteger(res.body.route_uid)).toBe(true);
    expect(res.body).toMatchObject({ route_name: 'Morning run', vehicle_uid: null, directions_source: 'estimate' });
    expect(res.body.stops).toStrictEqual(
      stops.map((stop, i) => ({
        seq: i + 1,
        user_location_uid: expect.any(Number),
        description: describeNearTown(nearestTown(stop)!),
        latitude: stop.lat,
        longitude: stop.lng,
        created: true,
      })),
    );
    const saved = (await locationsOf(user)).map((location) => location.user_location_uid);
    expect(res.body.stops.map((stop: { user_location_uid: number }) => stop.user_location_uid).sort()).toEqual(saved.sort());
    const legKm = stops.slice(1).map((stop, i) => distanceKm(stops[i] as LatLng, stop));
    expect(res.body.legs).toStrictEqual(
      legKm.map((km, i) => ({
        from_seq: i + 1,
        to_seq: i + 2,
        distance_km: Math.round(km * 1000) / 1000,
        duration_s: Math.round((km / 50) * 3600),
      })),
    );
    expect(res.body.legs[0]).toMatchObject({ distance_km: 1, duration_s: 72 });
    expect(res.body.totals).toStrictEqual({
      distance_km: Math.round(res.body.legs.reduce((sum, leg) => sum + leg.distance_km, 0) * 1000) / 1000,
      duration_s: res.body.legs.reduce((sum, leg) => sum + leg.duration_s, 0),
    });
  });

  it('uses the speed of ESTIMATE_SPEED_KMH', async () => {
    useEnv({ ESTIMATE_SPEED_KMH: '80' });
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res.body.legs[0]).toStrictEqual({ from_seq: 1, to_seq: 2, distance_km: 1, duration_s: 45 });
  });

  it('takes DIRECTIONS_PROVIDER=estimate explicitly, in any case', async () => {
    useEnv({ DIRECTIONS_PROVIDER: ' Estimate ' });
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res.body.directions_source).toBe('estimate');
  });

  it('accepts a JSON body with stops as a real array, numbers and a vehicle as a number', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const stops = rawStops(2).map((stop, i) => ({ ...stop, description: `Drop ${i + 1}` }));
    const body = JSON.stringify({ api_key: user.key, route_name: 'JSON run', stops, vehicle_uid: vehicle.vehicleUid });
    // Act
    const res = await api.operation('addRoute', {}, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ route_name: 'JSON run', vehicle_uid: vehicle.vehicleUid });
    expect(res.body.stops.map((stop: { description: string }) => stop.description)).toEqual(['Drop 1', 'Drop 2']);
  });

  it('accepts a JSON body with stops as JSON text', async () => {
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) }, { json: true });
    expect(res).toBeSuccess();
    expect(res.body.stops).toHaveLength(2);
  });

  it('accepts coordinates and ids as decimal text inside the stops', async () => {
    const user = await givenUser();
    const depot = await givenUserLocation(user);
    const [, far] = rawStops(2, { lat: -26.3, lng: 28.1 });
    const stops = [{ user_location_uid: String(depot.userLocationUid) }, { lat: String(far?.lat), lng: ` ${far?.lng} ` }];
    const res = await addRoute(user, { stops: stopsText(stops) });
    expect(res).toBeSuccess();
    expect(res.body.stops[0]?.user_location_uid).toBe(depot.userLocationUid);
    expect(res.body.stops[1]).toMatchObject({ latitude: far?.lat, longitude: far?.lng, created: true });
  });

  it('routes through a saved location named by user_location_uid, with its description and coordinates', async () => {
    // Prepare
    const user = await givenUser();
    const depot = await givenUserLocation(user, { description: 'Depot Ormonde' });
    const [, client] = rawStops(2, { lat: depot.latitude, lng: depot.longitude });
    // Act
    const res = await addRoute(user, {
      stops: stopsText([{ user_location_uid: depot.userLocationUid }, { ...client, description: 'Client' }]),
    });
    // Assess
    expect(res.body.stops).toStrictEqual([
      {
        seq: 1,
        user_location_uid: depot.userLocationUid,
        description: 'Depot Ormonde',
        latitude: depot.latitude,
        longitude: depot.longitude,
        created: false,
      },
      {
        seq: 2,
        user_location_uid: expect.any(Number),
        description: 'Client',
        latitude: client?.lat,
        longitude: client?.lng,
        created: true,
      },
    ]);
  });

  it('reuses a saved location 30 m from a raw stop and creates one for a stop 80 m away', async () => {
    // Prepare
    const user = await givenUser();
    const start = somewhere();
    const depot = await givenUserLocation(user, { description: 'Depot', latitude: start.lat, longitude: start.lng });
    const near = northOf(start, 30);
    const far = northOf(start, 80);
    // Act
    const res = await addRoute(user, {
      stops: stopsText([
        { ...near, description: 'ignored: the depot is reused' },
        { ...far, description: 'Gate' },
      ]),
    });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.stops[0]).toStrictEqual({
      seq: 1,
      user_location_uid: depot.userLocationUid,
      description: 'Depot',
      latitude: start.lat,
      longitude: start.lng,
      created: false,
    });
    expect(res.body.stops[1]).toMatchObject({ description: 'Gate', latitude: far.lat, longitude: far.lng, created: true });
    const saved = await locationsOf(user);
    expect(saved.map((location) => location.description)).toEqual(['Depot', 'Gate']);
    expect(res.body.stops[1]?.user_location_uid).toBe(saved[1]?.user_location_uid);
  });

  it('reuses the nearest of several saved locations within 50 m', async () => {
    // Prepare
    const user = await givenUser();
    const start = somewhere();
    const at40 = northOf(start, 40);
    const at10 = northOf(start, 10);
    await givenUserLocation(user, { description: '40 m', latitude: at40.lat, longitude: at40.lng });
    const nearest = await givenUserLocation(user, { description: '10 m', latitude: at10.lat, longitude: at10.lng });
    // Act
    const res = await addRoute(user, { stops: stopsText([start, northOf(start, 2000)]) });
    // Assess
    expect(res.body.stops[0]).toMatchObject({ user_location_uid: nearest.userLocationUid, description: '10 m', created: false });
  });

  it('reuses the most specific of the saved locations within 50 m that contain the stop', async () => {
    // Prepare: a wide region centred on the stop, saved first, and a small bay 40 m away that contains it too
    const user = await givenUser();
    const start = somewhere();
    const bayCentre = northOf(start, 40);
    await givenUserLocation(user, { description: 'Region', latitude: start.lat, longitude: start.lng, radius: 10 });
    const bay = await givenUserLocation(user, { description: 'Bay', latitude: bayCentre.lat, longitude: bayCentre.lng, radius: 0.1 });
    // Act
    const res = await addRoute(user, { stops: stopsText([start, northOf(start, 2000)]) });
    // Assess
    expect(res.body.stops[0]).toMatchObject({ user_location_uid: bay.userLocationUid, description: 'Bay', created: false });
  });

  it('names a new stop without a description by the most specific saved zone that contains it', async () => {
    // Prepare: a 2 km zone whose centre is too far from the stop to reuse it as the stop
    const user = await givenUser();
    const start = somewhere();
    await givenUserLocation(user, { description: 'Ormonde industrial area', latitude: start.lat, longitude: start.lng, radius: 2 });
    // Act
    const res = await addRoute(user, { stops: stopsText([northOf(start, 500), northOf(start, 5000)]) });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.stops.map((stop: { description: string; created: boolean }) => [stop.description, stop.created])).toEqual([
      ['Ormonde industrial area', true],
      [describeNearTown(nearestTown(northOf(start, 5000))!), true],
    ]);
  });

  it('keeps stop coordinates to 7 decimals: a value DynamoDB cannot store never reaches it', async () => {
    // Prepare
    const user = await givenUser();
    const stops = [
      { lat: 1e-200, lng: '28.123456789012345678901234567890123456789' },
      { lat: -1e-131, lng: 28.5 },
    ];
    // Act
    const body = JSON.stringify({ api_key: user.key, route_name: 'Tiny', stops });
    const res = await api.operation('addRoute', {}, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.stops.map(({ latitude, longitude }: { latitude: number; longitude: number }) => [latitude, longitude])).toEqual([
      [0, 28.1234568],
      [0, 28.5],
    ]);
    const saved = (await api.operation('getUserLocations', { api_key: user.key })).body.locations as {
      latitude: number;
      longitude: number;
    }[];
    expect(saved.map((location) => [location.latitude, location.longitude])).toEqual([
      [0, 28.1234568],
      [0, 28.5],
    ]);
  });

  it('saves a place visited twice once, as a round trip back to the depot', async () => {
    // Prepare
    const user = await givenUser();
    const [depot, client] = rawStops(2);
    // Act
    const res = await addRoute(user, { stops: stopsText([depot, client, northOf(depot as LatLng, 20)]) });
    // Assess
    expect(res).toBeSuccess();
    expect(await locationsOf(user)).toHaveLength(2);
    expect(res.body.stops[2]).toMatchObject({
      user_location_uid: res.body.stops[0]?.user_location_uid,
      latitude: depot?.lat,
      created: true,
    });
  });

  it('schedules the vehicle onto the route', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    // Act
    const res = await addRoute(user, { stops: stopsText(rawStops(2)), vehicle_uid: String(vehicle.vehicleUid) });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.vehicle_uid).toBe(vehicle.vehicleUid);
    expect(await scheduledRoutes(vehicle.vehicleUid)).toEqual([res.body.route_uid]);
  });

  it('takes a blank vehicle_uid as no vehicle', async () => {
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)), vehicle_uid: ' ' });
    expect(res).toBeSuccess();
    expect(res.body.vehicle_uid).toBeNull();
  });

  it('keeps unicode text and trims the route name and descriptions', async () => {
    const user = await givenUser();
    const [a, b] = rawStops(2);
    const stops = stopsText([{ ...a, description: ' Dépôt 📍 ' }, b]);
    const res = await addRoute(user, { route_name: '  Tournée 北京 🚚 ', stops });
    expect(res.body.route_name).toBe('Tournée 北京 🚚');
    expect(res.body.stops[0]?.description).toBe('Dépôt 📍');
  });

  it('accepts 25 stops', async () => {
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(25)) });
    expect(res).toBeSuccess();
    expect(res.body.legs).toHaveLength(24);
    expect(res.body.stops[24]?.seq).toBe(25);
  });

  it('gives routes made at the same time different ids', async () => {
    const user = await givenUser();
    const responses = await Promise.all(Array.from({ length: 5 }, () => addRoute(user, { stops: stopsText(rawStops(2)) })));
    expect(new Set(responses.map((res) => res.body.route_uid)).size).toBe(5);
  });

  it('answers internal error to an unknown DIRECTIONS_PROVIDER and creates nothing', async () => {
    useEnv({ DIRECTIONS_PROVIDER: 'mapquest' });
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(500, 'internal error');
    await expectNothingCreated(user);
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const res = await api.get('addRoute', { api_key: user.key, route_name: 'R', stops: stopsText(rawStops(2)) });
    expect(res).toBeError(405, 'method not allowed, use POST');
  });
});

describe('addRoute refusals', () => {
  beforeEach(() => useEnv({}));

  const two = () => rawStops(2);
  const withStop = (index: number, stop: unknown) => {
    const stops: unknown[] = two();
    stops[index] = stop;
    return stopsText(stops);
  };

  it.each([
    ['route_name is missing', () => ({ route_name: undefined, stops: stopsText(two()) }), 'route_name is required'],
    ['route_name is blank', () => ({ route_name: '  ', stops: stopsText(two()) }), 'route_name is required'],
    ['route_name is too long', () => ({ route_name: 'r'.repeat(256), stops: stopsText(two()) }), 'route_name is too long (max 255 chars)'],
    ['everything is missing, route_name first', () => ({ route_name: undefined }), 'route_name is required'],
    ['stops is missing', () => ({}), STOPS_REQUIRED],
    ['stops is empty', () => ({ stops: '' }), STOPS_REQUIRED],
    ['stops is not JSON', () => ({ stops: 'depot;client' }), STOPS_REQUIRED],
    ['stops is a JSON object', () => ({ stops: '{"lat":-26.2,"lng":28.0}' }), STOPS_REQUIRED],
    ['stops has one stop', () => ({ stops: stopsText(rawStops(1)) }), STOPS_REQUIRED],
    ['stops has 26 stops', () => ({ stops: stopsText(rawStops(26)) }), 'stops may have at most 25 stops'],
    ['a stop is a number', () => ({ stops: withStop(1, 5) }), 'stop 2 must have user_location_uid or lat and lng'],
    ['a stop is empty', () => ({ stops: withStop(0, {}) }), 'stop 1 must have user_location_uid or lat and lng'],
    ['a stop has lat only', () => ({ stops: stopsText([...two(), { lat: -26.1 }]) }), 'stop 3 must have user_location_uid or lat and lng'],
    [
      'a stop has both',
      () => ({ stops: withStop(1, { user_location_uid: 1, lat: 1, lng: 2 }) }),
      'stop 2 must have either user_location_uid or lat and lng, not both',
    ],
    [
      'a user_location_uid is text',
      () => ({ stops: withStop(1, { user_location_uid: 'depot' }) }),
      'stop 2 user_location_uid must be an integer',
    ],
    [
      'a user_location_uid is 2.5',
      () => ({ stops: withStop(1, { user_location_uid: 2.5 }) }),
      'stop 2 user_location_uid must be an integer',
    ],
    [
      'a user_location_uid is huge',
      () => ({ stops: withStop(1, { user_location_uid: '99999999999999999999' }) }),
      'stop 2 user_location_uid must be an integer',
    ],
    [
      'a user_location_uid is 1e30',
      () => ({ stops: withStop(1, { user_location_uid: 1e30 }) }),
      'stop 2 user_location_uid must be an integer',
    ],
    [
      'a user_location_uid is null',
      () => ({ stops: withStop(0, { user_location_uid: null }) }),
      'stop 1 user_location_uid must be an integer',
    ],
    ['a lat is text', () => ({ stops: withStop(1, { lat: 'north', lng: 28 }) }), 'stop 2 lat/lng must be numeric'],
    ['a lng is in exponent form', () => ({ stops: withStop(1, { lat: -26, lng: '2.8e1' }) }), 'stop 2 lat/lng must be numeric'],
    ['a lat is null', () => ({ stops: withStop(1, { lat: null, lng: 28 }) }), 'stop 2 lat/lng must be numeric'],
    ['a lat is empty text', () => ({ stops: withStop(1, { lat: '', lng: 28 }) }), 'stop 2 lat/lng must be numeric'],
    ['a lat is above 90', () => ({ stops: withStop(1, { lat: 90.5, lng: 28 }) }), 'stop 2 lat/lng out of range'],
    ['a lng is below -180', () => ({ stops: withStop(1, { lat: -26, lng: -180.01 }) }), 'stop 2 lat/lng out of range'],
    ['a lat is 1e30', () => ({ stops: withStop(1, { lat: 1e30, lng: 28 }) }), 'stop 2 lat/lng out of range'],
    ['a lat is huge text', () => ({ stops: withStop(1, { lat: '99999999999999999999', lng: 28 }) }), 'stop 2 lat/lng out of range'],
    ['a description is a number', () => ({ stops: withStop(1, { lat: -26, lng: 28, description: 5 }) }), 'stop 2 description must be text'],
    [
      'a description is too long',
      () => ({ stops: withStop(1, { lat: -26, lng: 28, description: 'd'.repeat(256) }) }),
      'stop 2 description is too long (max 255 chars)',
    ],
    ['the first bad stop answers', () => ({ stops: stopsText([{ lat: 95, lng: 0 }, {}]) }), 'stop 1 lat/lng out of range'],
    ['vehicle_uid is text', () => ({ stops: stopsText(two()), vehicle_uid: 'truck' }), 'vehicle_uid must be an integer'],
    ['vehicle_uid is 2.5', () => ({ stops: stopsText(two()), vehicle_uid: '2.5' }), 'vehicle_uid must be an integer'],
    ['vehicle_uid is huge', () => ({ stops: stopsText(two()), vehicle_uid: '99999999999999999999' }), 'vehicle_uid must be an integer'],
    ['vehicle_uid is 1e30', () => ({ stops: stopsText(two()), vehicle_uid: '1e30' }), 'vehicle_uid must be an integer'],
    ['stops and vehicle_uid are bad, stops first', () => ({ stops: '[]', vehicle_uid: 'x' }), STOPS_REQUIRED],
  ])('refuses a request where %s', async (_case, params, message) => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await addRoute(user, params());
    // Assess
    expect(res).toBeError(400, message);
    await expectNothingCreated(user);
  });

  it.each([
    ['route_name is an object', { route_name: { text: 'R' } }, 'route_name is required'],
    ['stops is an object', { stops: { lat: 1, lng: 2 } }, STOPS_REQUIRED],
    ['stops is a number', { stops: 2 }, STOPS_REQUIRED],
    [
      'a stop is an array',
      {
        stops: [
          [-26, 28],
          [-26.1, 28],
        ],
      },
      'stop 1 must have user_location_uid or lat and lng',
    ],
    ['vehicle_uid is true', { vehicle_uid: true }, 'vehicle_uid must be an integer'],
    ['vehicle_uid is 1e30', { vehicle_uid: 1e30 }, 'vehicle_uid must be an integer'],
  ])('refuses a JSON body where %s', async (_case, params, message) => {
    const user = await givenUser();
    const body = JSON.stringify({ api_key: user.key, route_name: 'R', stops: rawStops(2), ...params });
    const res = await api.operation('addRoute', {}, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
    expect(res).toBeError(400, message);
  });

  it("answers not found for a stop naming another user's location, creating nothing", async () => {
    // Prepare
    const user = await givenUser();
    const stranger = await givenUser();
    const theirs = await givenUserLocation(stranger);
    // Act
    const res = await addRoute(user, { stops: stopsText([rawStops(1)[0] as LatLng, { user_location_uid: theirs.userLocationUid }]) });
    // Assess
    expect(res).toBeError(404, 'location not found or not linked to this api key');
    await expectNothingCreated(user);
    expect(await api.operation('getUserLocations', { api_key: stranger.key })).toMatchObject({ body: { cnt: 1 } });
  });

  it('answers not found for a stop naming a deleted location', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    await api.operation('deleteUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    const res = await addRoute(user, { stops: stopsText([{ user_location_uid: location.userLocationUid }, rawStops(1)[0] as LatLng]) });
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it("never reuses another user's location for a raw stop", async () => {
    const user = await givenUser();
    const stranger = await givenUser();
    const start = somewhere();
    const theirs = await givenUserLocation(stranger, { latitude: start.lat, longitude: start.lng });
    const res = await addRoute(user, { stops: stopsText([start, northOf(start, 3000)]) });
    expect(res.body.stops[0]).toMatchObject({ created: true });
    expect(res.body.stops[0]?.user_location_uid).not.toBe(theirs.userLocationUid);
  });

  it("answers not found for another user's vehicle, creating and scheduling nothing", async () => {
    // Prepare
    const user = await givenUser();
    const stranger = await givenUser();
    const theirs = await givenVehicle(stranger);
    // Act
    const res = await addRoute(user, { stops: stopsText(rawStops(2)), vehicle_uid: theirs.vehicleUid });
    // Assess
    expect(res).toBeError(404, 'vehicle not found or not linked to this api key');
    await expectNothingCreated(user);
    expect(await scheduledRoutes(theirs.vehicleUid)).toEqual([]);
  });

  it("answers the stops' not found before the vehicle's", async () => {
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText([{ user_location_uid: 1 }, { user_location_uid: 2 }]), vehicle_uid: 1 });
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it('answers the common key errors', async () => {
    const res = await api.operation('addRoute', { route_name: 'R', stops: stopsText(rawStops(2)) });
    expect(res).toBeError(401, 'api key missing');
  });
});

// ---- Amazon Location Service routes (the AWS default) -------------------------------------------------

/** CalculateRoutes' answer: one Vehicle leg per pair of stops, leg i 1800·(i+1) m and 150·(i+1) s, arriving at waypoint i. */
function amazonRoutes(_url: URL, request: ProviderRequest): Answer {
  const {
    Origin,
    Destination,
    Waypoints = [],
  } = request.body as { Origin: number[]; Destination: number[]; Waypoints?: Array<{ Position: number[] }> };
  const points = [Origin, ...Waypoints.map((waypoint) => waypoint.Position), Destination];
  return {
    body: amazonRoutesBody(
      points
        .slice(1)
        .map((end, i) => vehicleLeg(points[i] as number[], end, 1800 * (i + 1), 150 * (i + 1), i < Waypoints.length ? i : undefined)),
    ),
  };
}

function vehicleLeg(from: number[], to: number[], metres: number, seconds: number, waypointIndex: number | undefined, type = 'Vehicle') {
  const details = {
    AfterTravelSteps: [],
    Incidents: [],
    Notices: [],
    PassThroughWaypoints: [],
    Spans: [],
    Tolls: [],
    TollSystems: [],
    TravelSteps: [],
    TruckRoadTypes: [],
    Zones: [],
    Departure: { Place: { Position: from, OriginalPosition: from }, Time: '2026-11-23T08:00:00+02:00' },
    Arrival: {
      Place: { Position: to, OriginalPosition: to, ...(waypointIndex === undefined ? {} : { WaypointIndex: waypointIndex }) },
      Time: '2026-11-23T08:10:00+02:00',
    },
    Summary: { Overview: { Distance: metres, Duration: seconds }, TravelOnly: { Duration: seconds } },
  };
  return {
    Geometry: { Polyline: 'BFoz5xJ67i1B1B7PzIhaxL7Y' },
    Language: 'en',
    TravelMode: type === 'Ferry' ? 'Ferry' : 'Car',
    Type: type,
    [`${type}LegDetails`]: details,
  };
}

const amazonRoutesBody = (legs: unknown[]) => ({
  LegGeometryFormat: 'FlexiblePolyline',
  Notices: [],
  PricingBucket: 'Core',
  Routes: [{ Legs: legs, MajorRoadLabels: [{ RoadName: { Language: 'en', Value: 'M2' } }], Summary: { Distance: 5400, Duration: 450 } }],
});

describe('addRoute with Amazon Location Service routes', () => {
  let amazon: FakeProvider;

  beforeAll(async () => {
    amazon = await startFakeProvider(amazonRoutes);
  });
  afterAll(() => amazon.close());
  beforeEach(() => {
    amazon.answer = amazonRoutes;
    useEnv({
      DIRECTIONS_PROVIDER: 'amazon',
      AMAZON_LOCATION_ROUTES_ENDPOINT: amazon.url,
      PROVIDER_TIMEOUT_MS: ANSWERING_PROVIDER_TIMEOUT_MS,
    });
  });

  it('asks CalculateRoutes by car for origin, waypoints and destination, longitude first, signed, and reports each leg', async () => {
    // Prepare
    const user = await givenUser();
    const stops = rawStops(3);
    const before = amazon.received.length;
    // Act
    const res = await addRoute(user, { stops: stopsText(stops) });
    // Assess
    expect(res).toBeSuccess();
    const asked = amazon.received.slice(before);
    expect(asked.map((request) => [request.method, request.url.pathname])).toEqual([['POST', '/v2/routes']]);
    expect(asked[0]?.body).toEqual({
      Origin: [stops[0]?.lng, stops[0]?.lat],
      Waypoints: [{ Position: [stops[1]?.lng, stops[1]?.lat] }],
      Destination: [stops[2]?.lng, stops[2]?.lat],
      TravelMode: 'Car',
      LegAdditionalFeatures: ['Summary'],
    });
    expect(String(asked[0]?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/[a-z0-9-]+\/geo-routes\/aws4_request/,
    );
    expect(res.body.directions_source).toBe('amazon');
    expect(res.body.legs).toStrictEqual([
      { from_seq: 1, to_seq: 2, distance_km: 1.8, duration_s: 150 },
      { from_seq: 2, to_seq: 3, distance_km: 3.6, duration_s: 300 },
    ]);
  });

  it('adds up the legs a ferry crossing splits a stop-to-stop leg into', async () => {
    // Prepare: stop 1 → (drive, ferry, drive) → stop 2 → stop 3
    const user = await givenUser();
    const stops = rawStops(3);
    const [a, b, c] = stops.map((stop) => [stop.lng, stop.lat]) as [number[], number[], number[]];
    amazon.answer = () => ({
      body: amazonRoutesBody([
        vehicleLeg(a, [0, 0], 1000, 100, undefined),
        vehicleLeg([0, 0], [1, 1], 500, 900, undefined, 'Ferry'),
        vehicleLeg([1, 1], b, 250, 20, 0),
        vehicleLeg(b, c, 2000, 200, undefined),
      ]),
    });
    // Act
    const res = await addRoute(user, { stops: stopsText(stops) });
    // Assess
    expect(res.body.legs).toStrictEqual([
      { from_seq: 1, to_seq: 2, distance_km: 1.75, duration_s: 1020 },
      { from_seq: 2, to_seq: 3, distance_km: 2, duration_s: 200 },
    ]);
  });

  it.each([
    [
      'HTTP 500',
      (): Answer => ({ status: 500, body: { message: 'internal' }, headers: { 'x-amzn-errortype': 'InternalServerException' } }),
      'directions provider amazon answered HTTP 500 (InternalServerException)',
    ],
    [
      'HTTP 403',
      (): Answer => ({ status: 403, body: { message: 'denied' }, headers: { 'x-amzn-errortype': 'AccessDeniedException' } }),
      'directions provider amazon answered HTTP 403 (AccessDeniedException)',
    ],
    [
      'no routes',
      (): Answer => ({ body: { ...amazonRoutesBody([]), Routes: [] } }),
      'directions provider amazon gave an unexpected answer',
    ],
    [
      'a leg without a summary',
      (): Answer => ({ body: amazonRoutesBody([{ Type: 'Vehicle', TravelMode: 'Car', VehicleLegDetails: {} }]) }),
      'directions provider amazon gave an unexpected answer',
    ],
    ['no answer within the timeout', (): Answer => 'hang', 'directions provider amazon did not answer within 0.5 s'],
  ])('answers 502 to %s, creating nothing', async (_case, answer, message) => {
    const user = await givenUser();
    amazon.answer = answer;
    shortenTimeoutIfHung(answer);
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(502, message);
    await expectNothingCreated(user);
  });
});

// ---- new stops named by a reverse-geocoding provider -------------------------------------------------

describe('addRoute naming new stops by their address', () => {
  let nominatim: FakeProvider;
  const nominatimAnswer = (url: URL): Answer => ({
    body: { place_id: 1, display_name: `Stop at ${url.searchParams.get('lat')},${url.searchParams.get('lon')}, Gauteng, South Africa` },
  });

  beforeAll(async () => {
    nominatim = await startFakeProvider(nominatimAnswer);
  });
  afterAll(() => nominatim.close());

  it('names a stop without a description by its address, one call per new place, and keeps given descriptions', async () => {
    // Prepare
    useEnv({ GEOCODING_PROVIDER: 'nominatim', NOMINATIM_URL: nominatim.url });
    const user = await givenUser();
    const [first, second] = rawStops(2);
    const before = nominatim.requests.length;
    // Act
    const res = await addRoute(user, { stops: stopsText([first, { ...second, description: 'Client' }]) });
    // Assess
    expect(res).toBeSuccess();
    expect(nominatim.requests.length - before).toBe(1);
    const cell = (value: number | undefined) => Number(Number(value).toFixed(4));
    expect(res.body.stops.map((stop: { description: string }) => stop.description)).toEqual([
      `Stop at ${cell(first?.lat)},${cell(first?.lng)}, Gauteng, South Africa`,
      'Client',
    ]);
  });

  it('names the stop by the gazetteer when the provider fails, and still makes the route', async () => {
    // Prepare
    useEnv({ GEOCODING_PROVIDER: 'nominatim', NOMINATIM_URL: nominatim.url });
    nominatim.answer = () => ({ status: 503, text: 'unavailable' });
    const user = await givenUser();
    const stops = rawStops(2);
    // Act
    const res = await addRoute(user, { stops: stopsText(stops) });
    // Assess
    nominatim.answer = nominatimAnswer;
    expect(res).toBeSuccess();
    expect(res.body.stops.map((stop: { description: string }) => stop.description)).toEqual(
      stops.map((stop) => describeNearTown(nearestTown(stop)!)),
    );
  });
});

// ---- OSRM -----------------------------------------------------------------------------------

describe('addRoute with OSRM', () => {
  let osrm: FakeProvider;

  beforeAll(async () => {
    osrm = await startFakeProvider(osrmRoute);
  });
  afterAll(() => osrm.close());
  beforeEach(() => {
    osrm.answer = osrmRoute;
    useEnv({ DIRECTIONS_PROVIDER: 'osrm', OSRM_URL: `${osrm.url}/`, PROVIDER_TIMEOUT_MS: ANSWERING_PROVIDER_TIMEOUT_MS });
  });

  it('asks the route service for the stops in order, longitude first, and reports its legs', async () => {
    // Prepare
    const user = await givenUser();
    const stops = rawStops(3);
    const before = osrm.requests.length;
    // Act
    const res = await addRoute(user, { stops: stopsText(stops) });
    // Assess
    expect(res).toBeSuccess();
    const [request] = osrm.requests.slice(before);
    expect(osrm.requests.length - before).toBe(1);
    expect(request?.pathname).toBe(`/route/v1/driving/${stops.map(({ lat, lng }) => `${lng},${lat}`).join(';')}`);
    expect(Object.fromEntries(request?.searchParams ?? [])).toEqual({ overview: 'false', steps: 'false' });
    expect(res.body.directions_source).toBe('osrm');
    expect(res.body.legs).toStrictEqual([
      { from_seq: 1, to_seq: 2, distance_km: 1.5, duration_s: 120 },
      { from_seq: 2, to_seq: 3, distance_km: 3.001, duration_s: 241 },
    ]);
    expect(res.body.totals).toStrictEqual({ distance_km: 4.501, duration_s: 361 });
  });

  it('serves an identical request from the S3 cache without calling OSRM again', async () => {
    // Prepare
    const user = await givenUser();
    const stops = stopsText(rawStops(3));
    const first = await addRoute(user, { stops });
    const before = osrm.requests.length;
    // Act
    const second = await addRoute(user, { route_name: 'Again', stops });
    // Assess
    expect(second).toBeSuccess();
    expect(osrm.requests.length).toBe(before);
    expect(second.body.legs).toStrictEqual(first.body.legs);
    expect(second.body.directions_source).toBe('osrm');
    expect(second.body.stops.every((stop: { created: boolean }) => !stop.created)).toBe(true);
  });

  it('asks again for the same stops in another order', async () => {
    const user = await givenUser();
    const stops = rawStops(2);
    await addRoute(user, { stops: stopsText(stops) });
    const before = osrm.requests.length;
    await addRoute(user, { stops: stopsText([...stops].reverse()) });
    expect(osrm.requests.length).toBe(before + 1);
  });

  it.each([
    ['HTTP 500', (): Answer => ({ status: 500, text: 'Internal Server Error' }), 'directions provider osrm answered HTTP 500'],
    [
      'HTTP 400 with code NoRoute, as OSRM answers an impossible route',
      (): Answer => ({ status: 400, body: { code: 'NoRoute', message: 'Impossible route between points' } }),
      'directions provider osrm answered HTTP 400',
    ],
    [
      'code NoRoute with HTTP 200',
      (): Answer => ({ body: { code: 'NoRoute', message: 'Impossible route between points' } }),
      'directions provider osrm answered code NoRoute',
    ],
    [
      'code NoSegment',
      (): Answer => ({ body: { code: 'NoSegment', message: 'Could not find a matching segment for any coordinate.' } }),
      'directions provider osrm answered code NoSegment',
    ],
    ['a body that is not JSON', (): Answer => ({ text: '<html>bad gateway</html>' }), 'directions provider osrm gave an unexpected answer'],
    [
      'too few legs',
      (): Answer => ({ body: { code: 'Ok', routes: [{ legs: [{ distance: 1, duration: 1 }] }] } }),
      'directions provider osrm gave an unexpected answer',
    ],
    ['no routes', (): Answer => ({ body: { code: 'Ok', routes: [] } }), 'directions provider osrm gave an unexpected answer'],
    [
      'a leg without a distance',
      (): Answer => ({ body: { code: 'Ok', routes: [{ legs: [{ duration: 1 }, { distance: 1, duration: 1 }] }] } }),
      'directions provider osrm gave an unexpected answer',
    ],
    ['no answer within the timeout', (): Answer => 'hang', 'directions provider osrm did not answer within 0.5 s'],
  ])('answers 502 to %s, creating nothing and caching nothing', async (_case, answer, message) => {
    // Prepare
    const user = await givenUser();
    const stops = stopsText(rawStops(3));
    osrm.answer = answer;
    shortenTimeoutIfHung(answer);
    // Act
    const res = await addRoute(user, { stops });
    // Assess
    expect(res).toBeError(502, message);
    await expectNothingCreated(user);
    osrm.answer = osrmRoute;
    process.env.PROVIDER_TIMEOUT_MS = ANSWERING_PROVIDER_TIMEOUT_MS;
    const before = osrm.requests.length;
    expect(await addRoute(user, { stops })).toBeSuccess();
    expect(osrm.requests.length).toBe(before + 1);
  });

  it('answers internal error when OSRM_URL is not set: the public demo server is never a default', async () => {
    useEnv({ DIRECTIONS_PROVIDER: 'osrm' });
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(500, 'internal error');
    await expectNothingCreated(user);
  });

  it('answers 502 when OSRM cannot be reached', async () => {
    useEnv({ DIRECTIONS_PROVIDER: 'osrm', OSRM_URL: `http://127.0.0.1:${await freePort()}` });
    const user = await givenUser();
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(502, 'directions provider osrm could not be reached');
    await expectNothingCreated(user);
  });
});

// ---- Google ---------------------------------------------------------------------------------

describe('addRoute with Google Directions', () => {
  let google: FakeProvider;

  beforeAll(async () => {
    google = await startFakeProvider(googleRoute);
  });
  afterAll(() => google.close());
  beforeEach(() => {
    google.answer = googleRoute;
    useEnv({
      DIRECTIONS_PROVIDER: 'google',
      GOOGLE_DIRECTIONS_URL: `${google.url}/maps/api/directions/json`,
      GOOGLE_DIRECTIONS_API_KEY: GOOGLE_KEY,
      PROVIDER_TIMEOUT_MS: ANSWERING_PROVIDER_TIMEOUT_MS,
    });
  });

  it('sends origin, destination, the stops between as waypoints and the configured key', async () => {
    // Prepare
    const user = await givenUser();
    const stops = rawStops(4);
    const before = google.requests.length;
    // Act
    const res = await addRoute(user, { stops: stopsText(stops), key: 'from-the-request' });
    // Assess
    expect(res).toBeSuccess();
    const [request] = google.requests.slice(before);
    expect(request?.pathname).toBe('/maps/api/directions/json');
    const text = stops.map(({ lat, lng }) => `${lat},${lng}`);
    expect(Object.fromEntries(request?.searchParams ?? [])).toEqual({
      origin: text[0],
      destination: text[3],
      waypoints: `${text[1]}|${text[2]}`,
      key: GOOGLE_KEY,
    });
    expect(res.body.directions_source).toBe('google');
    expect(res.body.legs).toStrictEqual([
      { from_seq: 1, to_seq: 2, distance_km: 2.1, duration_s: 250 },
      { from_seq: 2, to_seq: 3, distance_km: 4.2, duration_s: 500 },
      { from_seq: 3, to_seq: 4, distance_km: 6.3, duration_s: 750 },
    ]);
    expect(res.body.totals).toStrictEqual({ distance_km: 12.6, duration_s: 1500 });
  });

  it('sends no waypoints for a route of two stops', async () => {
    const user = await givenUser();
    const before = google.requests.length;
    await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect([...(google.requests[before]?.searchParams.keys() ?? [])].sort()).toEqual(['destination', 'key', 'origin']);
  });

  it('caches the answer in S3 under directions/ with no key in the object key', async () => {
    // Prepare
    const user = await givenUser();
    const stops = stopsText(rawStops(3));
    await addRoute(user, { stops });
    const before = google.requests.length;
    // Act
    const again = await addRoute(user, { stops });
    // Assess
    expect(again).toBeSuccess();
    expect(google.requests.length).toBe(before);
    const listed = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: 'directions/' }));
    const objectKeys = (listed.Contents ?? []).map((object) => object.Key ?? '');
    expect(objectKeys.length).toBeGreaterThan(0);
    for (const key of objectKeys) expect(key).toMatch(/^directions\/[0-9a-f]{64}\.json$/);
  });

  it.each([
    ['ZERO_RESULTS', { geocoded_waypoints: [], routes: [], status: 'ZERO_RESULTS' }],
    ['REQUEST_DENIED', { error_message: `The provided API key is invalid: ${GOOGLE_KEY}`, routes: [], status: 'REQUEST_DENIED' }],
    [
      'OVER_QUERY_LIMIT',
      { error_message: 'You have exceeded your daily request quota for this API.', routes: [], status: 'OVER_QUERY_LIMIT' },
    ],
  ])("answers 502 to status %s without the provider's text or the key, creating nothing", async (status, body) => {
    // Prepare
    const user = await givenUser();
    google.answer = () => ({ body });
    // Act
    const res = await addRoute(user, { stops: stopsText(rawStops(3)) });
    // Assess
    expect(res).toBeError(502, `directions provider google answered status ${status}`);
    await expectNothingCreated(user);
  });

  it.each([
    ['HTTP 503', (): Answer => ({ status: 503, text: 'unavailable' }), 'directions provider google answered HTTP 503'],
    ['a timeout', (): Answer => 'hang', 'directions provider google did not answer within 0.5 s'],
    [
      'a leg without a duration value',
      (): Answer => ({ body: { status: 'OK', routes: [{ legs: [{ distance: { value: 10 }, duration: { text: '1 min' } }] }] } }),
      'directions provider google gave an unexpected answer',
    ],
  ])('answers 502 to %s', async (_case, answer, message) => {
    const user = await givenUser();
    google.answer = answer;
    shortenTimeoutIfHung(answer);
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(502, message);
    await expectNothingCreated(user);
  });

  it('answers internal error when no key is configured, never calling Google', async () => {
    useEnv({ DIRECTIONS_PROVIDER: 'google', GOOGLE_DIRECTIONS_URL: `${google.url}/maps/api/directions/json` });
    const user = await givenUser();
    const before = google.requests.length;
    const res = await addRoute(user, { stops: stopsText(rawStops(2)) });
    expect(res).toBeError(500, 'internal error');
    expect(google.requests.length).toBe(before);
  });
});
