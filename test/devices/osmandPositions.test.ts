/**
 * The OsmAnd entry point over real HTTP, with Traccar's own test vectors (OsmAndProtocolDecoderTest in
 * traccar/traccar; each with our vehicle's IMEI as its id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { revokeDeviceToken } from '../../shared/store/device-tokens.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { archivedRecords, createDevices, devices, givenDeviceToken, storedPositions } from '../support/device-builders.ts';
import { type IsolatedEmulator, startIsolatedEmulator } from '../support/isolated-emulator.ts';

async function givenPhone(overrides: Parameters<typeof givenVehicle>[1] = {}) {
  const user = await givenUser();
  const vehicle = await givenVehicle(user, overrides);
  return { user, vehicle, token: await givenDeviceToken(user) };
}

/** The JSON form the current Traccar Client posts (Traccar's fourth JSON vector). */
const aJsonLocation = (deviceId: string, timestamp = '2021-07-21T08:06:34.444Z') => ({
  location: {
    event: 'motionchange',
    is_moving: false,
    uuid: '0e9a2473-a9a7-4c00-997b-fb97d2154e75',
    timestamp,
    odometer: 0,
    coords: {
      latitude: -6.1148096,
      longitude: 106.6837015,
      accuracy: 3.8,
      speed: 18.67,
      speed_accuracy: 0.26,
      heading: 63,
      heading_accuracy: 0.28,
      altitude: 35.7,
      altitude_accuracy: 3.8,
    },
    activity: { type: 'still', confidence: 100 },
    battery: { is_charging: false, level: 0.79 },
    extras: {},
  },
  device_id: deviceId,
});

/** What the app does with its buffer: a point answered 503 is sent again (a loaded test machine can time DynamoDB Local out). */
async function sendUntilAccepted(token: string, query: Record<string, string | number>) {
  for (let attempt = 1; ; attempt++) {
    const answer = await devices.osmand(token, { query });
    if (answer.status !== 503 || attempt === 5) return answer;
  }
}

const liveOf = async (user: TestUser) => (await api.get('getLiveData', { api_key: user.key })).body.vehicles?.[0];

describe('osmandPositions, query form', () => {
  it('takes a GET with speed in knots, bearing, ignition and fuel, and serves the point at once', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const query = { id: vehicle.imei, timestamp: 1504763810, lat: 40.7232948571, lon: -74.0061408571, bearing: 7.19889788244, speed: 40 };
    // Act
    const res = await devices.osmand(token, { method: 'GET', query: { ...query, ignition: 'true', rpm: 933, fuel: 24 } });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.accepted).toBe(1);
    expect(await storedPositions(user, vehicle.vehicleUid, '2017-09-07')).toEqual([
      expect.objectContaining({
        gps_datetime: '2017-09-07 05:56:50',
        latitude: 40.7232949,
        longitude: -74.0061409,
        speed: 74.08,
        heading: 7.198898,
        ignition: 1,
        fuel_value: 24,
      }),
    ]);
    expect(await liveOf(user)).toMatchObject({ gps_datetime: '2017-09-07 05:56:50', speed: '74.08' });
  });

  it('answers gzip-compressed when the device accepts it, as every JSON answer of the service', async () => {
    // Prepare
    const { vehicle, token } = await givenPhone();
    const query = { id: vehicle.imei, timestamp: 1504763810, lat: 40.7232948571, lon: -74.0061408571 };
    // Act
    const res = await devices.osmand(token, { query, headers: { 'Accept-Encoding': 'gzip' } });
    // Assess
    expect(res).toBeSuccess();
    expect([res.headers.get('content-encoding'), res.headers.get('vary')]).toEqual(['gzip', 'Accept-Encoding']);
  });

  it("takes the Android client's POST with an empty body and the parameters in the query, timestamp in milliseconds", async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const query = {
      id: vehicle.imei,
      lat: 42.06288,
      lon: -88.23412,
      timestamp: 1442068686579,
      hdop: '6.0',
      altitude: '224.0',
      speed: '0.0',
    };
    // Act
    const res = await devices.osmand(token, { query });
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2015-09-12')).toEqual([
      expect.objectContaining({ gps_datetime: '2015-09-12 14:38:06', latitude: 42.06288, longitude: -88.23412, speed: 0 }),
    ]);
  });

  it('takes the parameters form-encoded in the body, with an ISO timestamp', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const body = `id=${vehicle.imei}&lat=42.06288&lon=-88.23412&timestamp=2016-01-27T18%3A55%3A47Z&hdop=6.0&altitude=224.0&speed=0.0`;
    // Act
    const res = await devices.osmand(token, { body, contentType: 'application/x-www-form-urlencoded' });
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2016-01-27')).toEqual([
      expect.objectContaining({ gps_datetime: '2016-01-27 18:55:47', latitude: 42.06288 }),
    ]);
  });

  it('reads location=lat,lon, a "yyyy-MM-dd HH:mm:ss" time and deviceid, and keeps the protocol and receive time', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    // Act
    const res = await devices.osmand(token, {
      method: 'GET',
      query: { deviceid: vehicle.imei, timestamp: '2014-06-04 09:10:11', location: '60.0,30.0', batt: 87, sat: 7, valid: 'false' },
    });
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2014-06-04')).toEqual([
      expect.objectContaining({ gps_datetime: '2014-06-04 09:10:11', latitude: 60, longitude: 30 }),
    ]);
    expect(await archivedRecords(vehicle.imei)).toEqual([
      expect.objectContaining({ protocol: 'osmand', received_at: expect.stringMatching(/^\d{4}-/), satellites: 7, valid: false }),
    ]);
  });
});

describe('osmandPositions, JSON form', () => {
  it('takes a location with speed in m/s, heading and odometer in metres', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    // Act
    const res = await devices.osmand(token, { body: JSON.stringify(aJsonLocation(vehicle.imei)), contentType: 'application/json' });
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2021-07-21')).toEqual([
      expect.objectContaining({ gps_datetime: '2021-07-21 08:06:34', latitude: -6.1148096, speed: 67.212, heading: 63, odometer: 0 }),
    ]);
  });

  it('takes a list of locations, and an unknown speed and heading (-1) as none', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const first = aJsonLocation(vehicle.imei, '2025-06-15T13:45:12.862Z').location;
    const second = { ...first, timestamp: '2025-06-15T13:45:42.862Z', coords: { ...first.coords, speed: -1, heading: -1 } };
    // Act
    const res = await devices.osmand(token, {
      body: JSON.stringify({ device_id: vehicle.imei, location: [first, second] }),
      contentType: 'application/json',
    });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.accepted).toBe(2);
    const stored = await storedPositions(user, vehicle.vehicleUid, '2025-06-15');
    expect(stored.map((position) => [position.gps_datetime, position.speed, position.heading])).toEqual([
      ['2025-06-15 13:45:12', 67.212, 63],
      ['2025-06-15 13:45:42', null, null],
    ]);
  });
});

describe('osmandPositions refuses', () => {
  it('an unknown token, and a revoked one, with 401', async () => {
    // Prepare
    const { vehicle, token } = await givenPhone();
    const query = { id: vehicle.imei, lat: 60, lon: 30 };
    await revokeDeviceToken(token);
    // Act
    const [unknown, revoked] = await Promise.all([devices.osmand('not-a-token', { query }), devices.osmand(token, { query })]);
    // Assess
    expect(unknown).toBeError(401, 'unknown or revoked device token');
    expect(revoked).toBeError(401, 'unknown or revoked device token');
  });

  it("an unknown IMEI and another user's IMEI with 404, storing nothing", async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const other = await givenPhone();
    const at = { timestamp: '2026-03-01T08:00:00Z', lat: 60, lon: 30 };
    // Act
    const unknown = await devices.osmand(token, { query: { id: '359999999999998', ...at } });
    const othersImei = await devices.osmand(token, { query: { id: other.vehicle.imei, ...at } });
    const mixed = await devices.osmand(token, {
      body: JSON.stringify({ device_id: other.vehicle.imei, location: aJsonLocation(vehicle.imei).location }),
      contentType: 'application/json',
    });
    // Assess
    expect(unknown).toBeError(404, "imei 359999999999998 is not a vehicle of this device token's user");
    expect(othersImei).toBeError(404, `imei ${other.vehicle.imei} is not a vehicle of this device token's user`);
    expect(mixed.status).toBe(404);
    expect(await storedPositions(other.user, other.vehicle.vehicleUid, '2026-03-01')).toEqual([]);
    expect(await liveOf(other.user)).toMatchObject({ gps_datetime: null });
    expect(await liveOf(user)).toMatchObject({ gps_datetime: null });
  });

  it.each([
    [{ lat: 'north', lon: 30 }, 'lat must be a number'],
    [{ lat: 91, lon: 30 }, 'latitude out of range'],
    [{ lat: 60, lon: 181 }, 'longitude out of range'],
    [{ lat: 60 }, 'lat and lon (or location=lat,lon) are required'],
    [{ lat: 60, lon: 30, timestamp: 'yesterday' }, 'timestamp must be seconds or milliseconds since 1970, or an ISO 8601 time'],
  ])('malformed or out-of-range values %j with 400, storing nothing', async (values, message) => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    // Act
    const res = await devices.osmand(token, { query: { id: vehicle.imei, ...values } });
    // Assess
    expect(res).toBeError(400, message);
    expect(await liveOf(user)).toMatchObject({ gps_datetime: null });
  });

  it.each([
    [{ speed: 500 }, ['speed']],
    [{ ignition: 'maybe', fuel: 2 ** 62 }, ['fuel_raw', 'ignition']],
    [{ driverUniqueId: 'D'.repeat(65) }, ['driver_tag_id']],
    [{ driverUniqueId: 'tag\u0007' }, ['driver_tag_id']],
    [{ fuel: 'full', hours: 'many' }, ['engine_hours', 'fuel_raw']],
  ])('keeps the point of %o without the readings that do not fit, and names them on the record', async (readings, dropped) => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const query = { id: vehicle.imei, timestamp: '2026-03-01T10:00:00Z', lat: 60, lon: 30, batt: 'low', altitude: 'high', ...readings };
    // Act
    const res = await sendUntilAccepted(token, query);
    // Assess
    expect(res).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-03-01')).toEqual([
      expect.objectContaining({ gps_datetime: '2026-03-01 10:00:00', latitude: 60, longitude: 30 }),
    ]);
    expect((await archivedRecords(vehicle.imei)).at(-1)).toMatchObject({ dropped_readings: dropped });
  });

  it('a body that is not JSON, a request without an id, and a method other than GET or POST', async () => {
    // Prepare
    const { token } = await givenPhone();
    // Act
    const [invalid, noId, put] = await Promise.all([
      devices.osmand(token, { body: '{"device_id": ', contentType: 'application/json' }),
      devices.osmand(token, { query: { lat: 60, lon: 30 } }),
      devices.osmand(token, { method: 'PUT' }),
    ]);
    // Assess
    expect(invalid).toBeError(400, 'request body is not valid JSON');
    expect(noId).toBeError(400, 'id is required');
    expect(put).toBeError(405, 'method not allowed, use GET or POST');
  });

  it('a body over 256 KB, and more than 1000 positions, with 413', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const location = aJsonLocation(vehicle.imei).location;
    const many = {
      device_id: vehicle.imei,
      location: Array.from({ length: 1001 }, () => ({ timestamp: location.timestamp, coords: { latitude: 1, longitude: 1 } })),
    };
    // Act
    const [large, tooMany] = await Promise.all([
      devices.osmand(token, {
        body: `id=${vehicle.imei}&lat=1&lon=1&note=${'x'.repeat(300 * 1024)}`,
        contentType: 'application/x-www-form-urlencoded',
      }),
      devices.osmand(token, { body: JSON.stringify(many), contentType: 'application/json' }),
    ]);
    // Assess
    expect(large).toBeError(413, 'request body too large (max 256 KB)');
    expect(tooMany).toBeError(413, 'too many positions (max 1000 a request)');
    expect(await liveOf(user)).toMatchObject({ gps_datetime: null });
  });
});

describe('osmandPositions when the stream fails', () => {
  let failing: IsolatedEmulator;

  beforeAll(async () => {
    // The handlers of this emulator write to a Kinesis endpoint nothing listens on: a stream that is down.
    failing = await startIsolatedEmulator({ POSITIONS_STREAM_NAME: 'positions', KINESIS_ENDPOINT: `http://127.0.0.1:${await freePort()}` });
  });
  afterAll(() => failing.stop());

  it('answers 503 and stores nothing; the same point sent again is stored once', async () => {
    // Prepare
    const { user, vehicle, token } = await givenPhone();
    const point = { query: { id: vehicle.imei, timestamp: '2026-04-01T10:00:00Z', lat: 60, lon: 30, speed: 10 } };
    // Act
    const refused = await createDevices(() => failing.url).osmand(token, point);
    const storedAfterRefusal = await storedPositions(user, vehicle.vehicleUid, '2026-04-01');
    const resent = await devices.osmand(token, point);
    const resentAgain = await devices.osmand(token, point);
    // Assess
    expect(refused).toBeError(503, 'position stream unavailable, retry later');
    expect(storedAfterRefusal).toEqual([]);
    expect(resent).toBeSuccess();
    expect(resentAgain).toBeSuccess();
    expect(await storedPositions(user, vehicle.vehicleUid, '2026-04-01')).toEqual([
      expect.objectContaining({ gps_datetime: '2026-04-01 10:00:00', speed: 18.52 }),
    ]);
  });
});

describe('osmandPositions under load', () => {
  it('takes many phones of one fleet reporting in parallel, each point once', async () => {
    // Prepare
    const user = await givenUser();
    const vehicles = await Promise.all(Array.from({ length: 12 }, () => givenVehicle(user)));
    const token = await givenDeviceToken(user);
    const times = ['2026-05-01T08:00:00Z', '2026-05-01T08:00:30Z', '2026-05-01T08:01:00Z'];
    // Act: each phone sends its points in order, as the app does, and keeps a point it got a 503 for
    const answers = await Promise.all(
      vehicles.map(async (vehicle, index) => {
        const last = [];
        for (const timestamp of times) {
          last.push(await sendUntilAccepted(token, { id: vehicle.imei, timestamp, lat: 50 + index / 100, lon: 8, speed: 20 }));
        }
        return last;
      }),
    );
    // Assess
    for (const answer of answers.flat()) expect(answer).toBeSuccess();
    const live = (await api.get('getLiveData', { api_key: user.key })).body.vehicles;
    expect(live).toHaveLength(12);
    for (const record of live) expect(record.gps_datetime).toBe('2026-05-01 08:01:00');
    const stored = await Promise.all(vehicles.map((vehicle) => storedPositions(user, vehicle.vehicleUid, '2026-05-01')));
    for (const positions of stored) expect(positions).toHaveLength(3);
  });
});
