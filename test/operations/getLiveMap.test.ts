/**
 * getLiveMap through real HTTP. Provider configuration is read from the environment at call time, so this
 * file runs its own API emulator in this process, pointed at a fake Google Static Maps on 127.0.0.1.
 */
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiEmulator, startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';
import { tilesCovering } from '../../shared/domain/live-map/projection.ts';
import { MARKER } from '../../shared/domain/live-map/svg-map.ts';
import { logger } from '../../shared/logger.ts';
import { PARALLEL_TILES } from '../../shared/providers/map-tiles.ts';
import { createApi } from '../support/api.ts';
import { givenDrainedBucket, givenLiveState, givenUser, givenVehicle } from '../support/builders.ts';
import {
  type FakeGeoMaps,
  type FakeStaticMaps,
  type FakeTileServer,
  GREEN_JPEG_64X48,
  givenPlacedVehicle,
  JPEG_GREEN,
  startFakeGeoMaps,
  startFakeStaticMaps,
  startFakeTileServer,
  storedLiveMapKeys,
} from '../support/live-map-builders.ts';
import { givenPolygonLocation } from '../support/user-locations-builders.ts';

const DEPOT = { lat: -26.2041, lng: 28.0473 };
const CLIENT = { lat: -26.1076, lng: 28.0567 };
const MAP_KEY = 'AIzaSy-test-map-key-0123456789abcdef';

let fake: FakeStaticMaps;
let tiles: FakeTileServer;
let geoMaps: FakeGeoMaps;
let emulator: ApiEmulator;
const api = createApi(() => emulator.url);

beforeAll(async () => {
  fake = await startFakeStaticMaps();
  tiles = await startFakeTileServer();
  geoMaps = await startFakeGeoMaps({ bytes: GREEN_JPEG_64X48, mediaType: 'image/jpeg' });
  emulator = await startApiEmulator({ port: await freePort() });
});

afterAll(async () => {
  await emulator.close();
  await fake.close();
  await tiles.close();
  await geoMaps.close();
});

beforeEach(() => {
  Object.assign(process.env, { LIVE_MAP_PROVIDER: 'google', GOOGLE_STATIC_MAPS_URL: fake.url });
  delete process.env.PROVIDER_TIMEOUT_MS;
  fake.answer = 'png';
  fake.requests.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const decoded = (body: Buffer) => PNG.sync.read(body);
const pixel = (png: PNG, x: number, y: number): number[] => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
const near = (actual: readonly number[], expected: readonly number[], tolerance = 4) =>
  actual.every((value, index) => Math.abs(value - (expected[index] ?? 0)) <= tolerance);

describe('getLiveMap with Google Static Maps', () => {
  it("answers the provider's PNG for the vehicles at their last positions", async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    await givenPlacedVehicle(user, CLIENT);
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 640, height: 480, zoom: 11 });
    // Assess
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('image/png');
    expect(res.body).toEqual(fake.served.at(-1));
    expect(fake.requests).toHaveLength(1);
    const query = fake.requests[0] as URLSearchParams;
    expect([...query]).toEqual([
      ['size', '640x480'],
      ['zoom', '11'],
      ['center', '-26.15585,28.052'],
      ['maptype', 'roadmap'],
      ['format', 'png'],
      ['markers', 'color:red|label:A|-26.2041,28.0473'],
      ['markers', 'color:red|label:B|-26.1076,28.0567'],
      ['key', MAP_KEY],
    ]);
  });

  it('asks for 600×600 at zoom 13 when width, height and zoom are left out', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res.status).toBe(200);
    expect(fake.requests[0]?.get('size')).toBe('600x600');
    expect(fake.requests[0]?.get('zoom')).toBe('13');
    expect(fake.requests[0]?.get('center')).toBe('-26.2041,28.0473');
  });

  it.each([
    [{ width: 1, height: 1, zoom: 1 }, '1x1', '1'],
    [{ width: 640, height: 640, zoom: 20 }, '640x640', '20'],
  ])('accepts the limits %o', async (size, expectedSize, expectedZoom) => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, ...size });
    expect(res.status).toBe(200);
    expect([fake.requests[0]?.get('size'), fake.requests[0]?.get('zoom')]).toEqual([expectedSize, expectedZoom]);
  });

  it("shows only the filter's vehicles and skips vehicles that never reported", async () => {
    // Prepare
    const user = await givenUser();
    const depotTruck = await givenPlacedVehicle(user, DEPOT);
    await givenPlacedVehicle(user, CLIENT);
    const silent = await givenVehicle(user);
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, filter: `${depotTruck.imei},${silent.imei}` });
    // Assess
    expect(res.status).toBe(200);
    expect(fake.requests[0]?.getAll('markers')).toEqual(['color:red|label:A|-26.2041,28.0473']);
  });
});

describe('getLiveMap caching', () => {
  it('serves the same request with unchanged positions from S3 without calling the provider again', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const first = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Act
    const second = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    const otherKey = await api.get('getLiveMap', { api_key: user.key, map_api_key: 'another-map-key' });
    // Assess
    expect(fake.requests).toHaveLength(1);
    expect(second.contentType).toBe('image/png');
    expect(second.body).toEqual(first.body);
    expect(otherKey.body).toEqual(first.body);
  });

  it('calls the provider again once a vehicle has moved', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenPlacedVehicle(user, DEPOT);
    const before = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    await givenLiveState(vehicle, { latitude: CLIENT.lat, longitude: CLIENT.lng, gpsDatetime: '2026-11-01T07:00:00.000Z' });
    // Act
    const after = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.getAll('markers')).toEqual(['color:red|label:A|-26.1076,28.0567']);
    expect(after.body).not.toEqual(before.body);
  });

  it('calls the provider again for another size or zoom', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, zoom: 12 });
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 300 });
    expect(fake.requests).toHaveLength(3);
  });

  it('never puts the map_api_key into an S3 object key', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const before = await storedLiveMapKeys();
    // Act
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    const keys = await storedLiveMapKeys();
    expect(keys.length).toBe(before.length + 1);
    expect(keys.every((key) => /^livemaps\/[0-9a-f]{64}\.png$/.test(key))).toBe(true);
    expect(keys.join('\n')).not.toContain(MAP_KEY);
  });
});

describe('getLiveMap over the per-key limit', () => {
  it('answers 429 and nothing else, and never reaches the provider, though its reads ran alongside the bucket', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    await givenDrainedBucket(user.key, 5_000);
    const stored = await storedLiveMapKeys();
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(res).toBeError(429, 'too many requests for this api key, retry later');
    expect(Object.keys(res.body)).toEqual(['version', 'result', 'error_msg']);
    expect(fake.requests).toHaveLength(0);
    expect(await storedLiveMapKeys()).toEqual(stored);
  });

  it('answers 429 for a map already cached too: a refused request gets nothing it read', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    await givenDrainedBucket(user.key, 5_000);
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(res).toBeError(429, 'too many requests for this api key, retry later');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('getLiveMap when the provider fails', () => {
  it.each([403, 500])("answers 502 naming the provider's HTTP %i, and caches nothing", async (status) => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    fake.answer = { status };
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    fake.answer = 'png';
    const retry = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(res).toBeError(502, `Google Static Maps answered HTTP ${status}`);
    expect(retry.contentType).toBe('image/png');
    expect(fake.requests).toHaveLength(2);
  });

  it('answers 502 when the provider does not answer in time', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    process.env.PROVIDER_TIMEOUT_MS = '200';
    fake.answer = 'hang';
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(502, 'Google Static Maps did not answer within 0.2 s');
  });

  it('answers 502 when the provider answers something that is not a PNG', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    fake.answer = 'not-png';
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(502, 'Google Static Maps did not answer with a PNG image');
  });

  it('keeps the map_api_key out of every log line, even of an internal error', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const logged = (['debug', 'info', 'warn', 'error'] as const).map((level) => vi.spyOn(logger, level));
    process.env.LIVE_MAP_PROVIDER = 'not-a-provider';
    // Act
    const broken = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    process.env.LIVE_MAP_PROVIDER = 'google';
    fake.answer = { status: 403 };
    await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(broken).toBeError(500, 'internal error');
    const calls = logged.flatMap((spy) => spy.mock.calls);
    expect(calls.length).toBeGreaterThan(0);
    expect(JSON.stringify(calls)).not.toContain(MAP_KEY);
  });
});

describe('getLiveMap with the built-in offline map', () => {
  beforeEach(() => {
    process.env.LIVE_MAP_PROVIDER = 'offline';
  });

  it('draws a PNG of the requested size with the marker on the only vehicle, without any network', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 320, height: 200 });
    // Assess
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('image/png');
    const png = decoded(res.body);
    expect([png.width, png.height]).toEqual([320, 200]);
    const centre = (100 * 320 + 160) * 4;
    expect(Buffer.from(png.data.subarray(centre, centre + 3)).toString('hex')).toBe(MARKER.slice(1));
    expect(fake.requests).toHaveLength(0);
  });

  it('is the provider when LIVE_MAP_PROVIDER is unset', async () => {
    delete process.env.LIVE_MAP_PROVIDER;
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect([decoded(res.body).width, decoded(res.body).height]).toEqual([600, 600]);
    expect(fake.requests).toHaveLength(0);
  });

  it("draws again once the user's geofences change", async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const before = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    const cached = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    await givenPolygonLocation(user, { color: '#00ff00' });
    // Act
    const after = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(cached.body).toEqual(before.body);
    expect(after.body).not.toEqual(before.body);
  });
});

describe("getLiveMap for another user's vehicles", () => {
  it('never shows them', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const stranger = await givenUser();
    await givenPlacedVehicle(stranger, CLIENT);
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    // Assess
    expect(res.status).toBe(200);
    expect(fake.requests[0]?.getAll('markers')).toEqual(['color:red|label:A|-26.2041,28.0473']);
  });

  it('answers 404 for a filter of only their IMEIs', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const stranger = await givenUser();
    const theirs = await givenPlacedVehicle(stranger, CLIENT);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, filter: theirs.imei });
    expect(res).toBeError(404, 'no vehicle with a known position to show');
    expect(fake.requests).toHaveLength(0);
  });
});

type Refusal = [params: Record<string, string>, message: string];

const refusals: Refusal[] = [
  [{}, 'map_api_key is required'],
  [{ map_api_key: '' }, 'map_api_key is required'],
  [{ map_api_key: '   ' }, 'map_api_key is required'],
  [{ map_api_key: 'k'.repeat(513) }, 'map_api_key is too long (max 512 chars)'],
  ...['0', '641', '-1', '12.5', 'abc', '', '1e30', '99999999999999999999', '６００', '600px'].map(
    (width): Refusal => [{ map_api_key: MAP_KEY, width }, 'width must be an integer from 1 to 640'],
  ),
  ...['0', '641', 'abc', '1e3'].map((height): Refusal => [{ map_api_key: MAP_KEY, height }, 'height must be an integer from 1 to 640']),
  ...['0', '21', '13.5', 'abc', '', '1e30', '99999999999999999999'].map(
    (zoom): Refusal => [{ map_api_key: MAP_KEY, zoom }, 'zoom must be an integer from 1 to 20'],
  ),
  [{ width: '0', zoom: '99' }, 'map_api_key is required'],
  [{ map_api_key: MAP_KEY, width: '0', height: '0', zoom: '0' }, 'width must be an integer from 1 to 640'],
  [{ map_api_key: MAP_KEY, height: '0', zoom: '0' }, 'height must be an integer from 1 to 640'],
];

describe('getLiveMap refuses', () => {
  it('a user without a vehicle that has a position, with 404', async () => {
    const user = await givenUser();
    await givenVehicle(user);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(404, 'no vehicle with a known position to show');
  });

  it.each(refusals)('%o with 400 "%s"', async (params, message) => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const res = await api.get('getLiveMap', { api_key: user.key, ...params });
    expect(res).toBeError(400, message);
    expect(fake.requests).toHaveLength(0);
  });

  it('a POST, before looking at the key', async () => {
    const res = await api.request('POST', 'getLiveMap', { map_api_key: MAP_KEY });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });

  it('a missing api key, with the envelope', async () => {
    expect(await api.get('getLiveMap', { map_api_key: MAP_KEY })).toBeError(401, 'api key missing');
  });
});

describe('getLiveMap with Amazon Location Service static maps', () => {
  beforeEach(() => {
    Object.assign(process.env, { LIVE_MAP_PROVIDER: 'amazon-location', GEO_MAPS_ENDPOINT: geoMaps.endpoint });
    geoMaps.answer = 'png';
    geoMaps.requests.length = 0;
  });

  it('asks GetStaticMap, signed with IAM credentials and no key, for the vehicles as a GeoJSON overlay, and answers a PNG', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT, { name: 'Truck 01' });
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 320, height: 200, zoom: 12 });
    // Assess
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('image/png');
    const [request] = geoMaps.requests;
    expect(request?.path).toMatch(/\/static\/map$/);
    expect(Object.fromEntries(request?.query ?? [])).toMatchObject({
      center: '28.0473,-26.2041',
      zoom: '12',
      width: '320',
      height: '200',
      style: 'Satellite',
    });
    expect(JSON.parse(request?.query.get('geojson-overlay') ?? '{}')).toEqual({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [28.0473, -26.2041] },
          properties: { color: '#d32f2f', label: 'Truck 01' },
        },
      ],
    });
    expect(request?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\//);
    expect(request?.query.has('key')).toBe(false);
    expect(JSON.stringify(geoMaps.requests.map((r) => [...r.query]))).not.toContain(MAP_KEY);
    const png = decoded(res.body);
    expect([png.width, png.height]).toEqual([320, 200]);
    // the service's picture (a JPEG; this fake's is 64 × 48, so it is scaled into the frame), the legend over its top-left corner
    expect(near(pixel(png, 250, 150), JPEG_GREEN)).toBe(true);
    expect(near(pixel(png, 40, 20), JPEG_GREEN)).toBe(false);
  });

  it("asks for at least 64 × 64, the service's minimum, and answers the size requested", async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 40, height: 30 });
    expect(Object.fromEntries(geoMaps.requests[0]?.query ?? [])).toMatchObject({ width: '64', height: '64' });
    expect([decoded(res.body).width, decoded(res.body).height]).toEqual([40, 30]);
  });

  it.each([403, 429, 500])("answers 502 naming the service's HTTP %i, and caches nothing", async (status) => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    geoMaps.answer = { status };
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    geoMaps.answer = 'png';
    const retry = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(502, `Amazon Location Service maps answered HTTP ${status}`);
    expect(retry.contentType).toBe('image/png');
    expect(geoMaps.requests).toHaveLength(2);
  });

  it('answers 502 when the service does not answer in time', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    process.env.PROVIDER_TIMEOUT_MS = '300';
    geoMaps.answer = 'hang';
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(502, 'Amazon Location Service maps did not answer within 0.3 s');
  });

  it('answers 502 when the service answers something that is not an image', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    geoMaps.answer = 'not-png';
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY });
    expect(res).toBeError(502, 'Amazon Location Service maps did not answer with an image');
  });
});

describe('getLiveMap with an XYZ tile server', () => {
  beforeEach(() => {
    Object.assign(process.env, { LIVE_MAP_PROVIDER: 'tiles', MAP_TILES_URL: tiles.template });
    tiles.answer = 'png';
    tiles.requests.length = 0;
    tiles.mostAtOnce = 0;
  });

  it("stitches the tiles that cover the picture, a few at a time with the request's key, and draws the vehicles on top", async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT, {}, { heading: null });
    // Act
    const res = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 600, height: 600 });
    // Assess
    const expected = tilesCovering({ centre: DEPOT, zoom: 13, width: 600, height: 600 }).map(({ z, x, y }) => `${z}/${x}/${y}`);
    expect(tiles.requests.map(({ z, x, y }) => `${z}/${x}/${y}`).sort()).toEqual([...expected].sort());
    expect(expected.length).toBeGreaterThanOrEqual(9);
    expect(tiles.requests.every((request) => request.key === MAP_KEY)).toBe(true);
    expect(tiles.mostAtOnce).toBeGreaterThan(1);
    expect(tiles.mostAtOnce).toBeLessThanOrEqual(PARALLEL_TILES);
    const png = decoded(res.body);
    expect([png.width, png.height]).toEqual([600, 600]);
    expect(pixel(png, 300, 300)).toEqual([0xd3, 0x2f, 0x2f]);
    expect(pixel(png, 500, 500)).toEqual([170, 211, 223]);
  });

  it('serves the same picture from S3 without fetching a tile again', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    const first = await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY, width: 200, height: 200 });
    const fetched = tiles.requests.length;
    const second = await api.get('getLiveMap', { api_key: user.key, map_api_key: 'another-key', width: 200, height: 200 });
    expect(second.body).toEqual(first.body);
    expect(tiles.requests).toHaveLength(fetched);
    expect((await storedLiveMapKeys()).join()).not.toContain(MAP_KEY);
  });

  it.each([
    [{ status: 404 }, 'The map tile server answered HTTP 404'],
    ['not-png', 'The map tile server did not answer with a PNG or JPEG tile'],
  ] as const)('answers 502 when a tile fails (%j)', async (answer, message) => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    tiles.answer = answer;
    expect(await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY })).toBeError(502, message);
  });

  it('answers 502 when the tiles do not come in time', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, DEPOT);
    process.env.PROVIDER_TIMEOUT_MS = '300';
    tiles.answer = 'hang';
    expect(await api.get('getLiveMap', { api_key: user.key, map_api_key: MAP_KEY })).toBeError(
      502,
      'The map tile server did not answer within 0.3 s',
    );
  });
});
