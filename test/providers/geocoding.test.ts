/**
 * How trips are named outside every saved zone by a reverse-geocoding provider (docs/positions-pipeline.md,
 * "Place names"). The pipeline runs in this process (ingest), so GEOCODING_PROVIDER and friends are set here;
 * each provider is faked on 127.0.0.1 in its real wire format (Amazon Location through the SDK, signed with
 * fake credentials). Every test drives between random spots 5 km apart or more, so the shared cache of one never
 * answers another and each drive is a trip.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LatLng } from '../../shared/domain/geo.ts';
import { describeNearTown, nearestTown } from '../../shared/providers/gazetteer.ts';
import { Geocoder } from '../../shared/providers/geocoding/geocoder.ts';
import { NOMINATIM_USER_AGENT } from '../../shared/providers/geocoding/nominatim.ts';
import type { GeocodingProvider } from '../../shared/providers/geocoding/provider.ts';
import { logger, metricNames, metrics } from '../../shared/telemetry.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { type Answer, type FakeProvider, type ProviderRequest, startFakeProvider } from '../support/fake-provider.ts';
import { drive, ingest, parked } from '../support/position-builders.ts';
import { placesApart } from '../support/routes-builders.ts';

const DAY = '2026-11-05';
const GOOGLE_KEY = 'AIzaGeocodingTestKey-0123';
const SETTINGS = [
  'GEOCODING_PROVIDER',
  'GEOCODING_TIMEOUT_MS',
  'GEOCODING_BATCH_CALLS',
  'GEOCODING_BATCH_BUDGET_MS',
  'AMAZON_LOCATION_PLACES_ENDPOINT',
  'GOOGLE_GEOCODING_URL',
  'GOOGLE_GEOCODING_API_KEY',
  'NOMINATIM_URL',
];
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));

function useSettings(values: Record<string, string>): void {
  for (const name of SETTINGS) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
}

let amazon: FakeProvider;
let google: FakeProvider;
let nominatim: FakeProvider;

beforeAll(async () => {
  [amazon, google, nominatim] = await Promise.all([
    startFakeProvider(amazonAnswer),
    startFakeProvider(googleAnswer),
    startFakeProvider(nominatimAnswer),
  ]);
});

afterAll(async () => {
  useSettings(saved as Record<string, string>);
  await Promise.all([amazon.close(), google.close(), nominatim.close()]);
});

// ---- the providers' wire formats -----------------------------------------------------------------

/** A street address naming the point asked about, so a test can tell which place got which answer. */
const streetAt = (lat: number, lng: number): string => `${Math.abs(lat).toFixed(4)} Main Reef Rd ${lng.toFixed(4)}, Johannesburg, 2001`;

/** Amazon Location ReverseGeocode (POST /v2/reverse-geocode, QueryPosition [lng, lat]). */
function amazonAnswer(_url: URL, request: ProviderRequest): Answer {
  const [lng, lat] = (request.body as { QueryPosition: [number, number] }).QueryPosition;
  return {
    body: {
      PricingBucket: 'Core',
      ResultItems: [
        {
          PlaceId: 'AQAAAFUAtest',
          PlaceType: 'PointAddress',
          Title: streetAt(lat, lng),
          Address: {
            Label: `${streetAt(lat, lng)}, South Africa`,
            Country: { Code2: 'ZA', Code3: 'ZAF', Name: 'South Africa' },
            Region: { Name: 'Gauteng' },
            Locality: 'Johannesburg',
            Street: 'Main Reef Rd',
            AddressNumber: '12',
          },
          Position: [lng, lat],
          Distance: 7,
        },
      ],
    },
  };
}

/** Google Geocoding, reverse (GET ?latlng=lat,lng&key=K). */
function googleAnswer(url: URL): Answer {
  const [lat, lng] = String(url.searchParams.get('latlng')).split(',').map(Number) as [number, number];
  return {
    body: {
      plus_code: { compound_code: 'QXV4+2X Johannesburg, South Africa', global_code: '5G5CQXV4+2X' },
      results: [
        {
          address_components: [{ long_name: 'Main Reef Road', short_name: 'Main Reef Rd', types: ['route'] }],
          formatted_address: `${streetAt(lat, lng)}, South Africa`,
          geometry: { location: { lat, lng }, location_type: 'ROOFTOP' },
          place_id: 'ChIJtest',
          types: ['street_address'],
        },
      ],
      status: 'OK',
    },
  };
}

/** Nominatim /reverse?format=jsonv2. */
function nominatimAnswer(url: URL): Answer {
  const lat = Number(url.searchParams.get('lat'));
  const lng = Number(url.searchParams.get('lon'));
  return {
    body: {
      place_id: 123456,
      licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
      osm_type: 'way',
      osm_id: 4242,
      lat: String(lat),
      lon: String(lng),
      category: 'highway',
      type: 'primary',
      place_rank: 26,
      importance: 0.1,
      addresstype: 'road',
      name: 'Main Reef Road',
      display_name: `${streetAt(lat, lng)}, Gauteng, South Africa`,
      boundingbox: [String(lat - 0.001), String(lat + 0.001), String(lng - 0.001), String(lng + 0.001)],
    },
  };
}

// ---- helpers ------------------------------------------------------------------------------------------

/** Driven from `from` to `to` starting at `hour`, then parked there, so one trip is detected. */
const aTrip = (imei: string, hour: number, from: LatLng, to: LatLng) => {
  const start = `${DAY}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const trip = drive(imei, start, 20, from, to);
  return [...trip.records, ...parked(imei, new Date(Date.parse(trip.stopTime) + 60_000).toISOString(), 15, to)];
};

async function tripPlaces(user: TestUser): Promise<Array<[string, string]>> {
  const res = await api.get('getTrips', { api_key: user.key, start_date: DAY, end_date: DAY });
  expect(res).toBeSuccess();
  return res.body.vehicles[0].trips.map((trip: { start_location: string; stop_location: string }) => [
    trip.start_location,
    trip.stop_location,
  ]);
}

const gazetteerName = (point: LatLng): string => describeNearTown(nearestTown(point)!);

/** Rounded to the cache's 4 decimals, as the provider is asked. */
const cell = ({ lat, lng }: LatLng): LatLng => ({ lat: Number(lat.toFixed(4)), lng: Number(lng.toFixed(4)) });

async function givenTracked() {
  const user = await givenUser();
  return { user, vehicle: await givenVehicle(user) };
}

// ---- Amazon Location Service Places (the AWS default) ---------------------------------------------

/**
 * A generous per-call timeout: the first call of the process also loads the SDK's middleware, which under a
 * loaded CI machine can take longer than a provider answer, and an aborted call never reaches the fake.
 */
const amazonSettings = (more: Record<string, string> = {}) => ({
  GEOCODING_PROVIDER: 'amazon',
  AMAZON_LOCATION_PLACES_ENDPOINT: amazon.url,
  GEOCODING_TIMEOUT_MS: '5000',
  ...more,
});

describe('Amazon Location Service Places', () => {
  beforeEach(() => {
    amazon.answer = amazonAnswer;
    useSettings(amazonSettings());
  });

  it("names a trip's start and stop outside every zone by the address, asking once per place with a signed request", async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    const before = amazon.received.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    const asked = amazon.received.slice(before);
    expect(asked).toHaveLength(2);
    expect(asked.map((request) => [request.method, request.url.pathname])).toEqual([
      ['POST', '/v2/reverse-geocode'],
      ['POST', '/v2/reverse-geocode'],
    ]);
    expect(asked.map((request) => request.body)).toEqual(
      expect.arrayContaining(
        [from, to].map((point) => ({ QueryPosition: [cell(point).lng, cell(point).lat], MaxResults: 1, IntendedUse: 'Storage' })),
      ),
    );
    expect(String(asked[0]?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/[a-z0-9-]+\/geo-places\/aws4_request/,
    );
    expect(await tripPlaces(user)).toEqual([
      [`${streetAt(cell(from).lat, cell(from).lng)}, South Africa`, `${streetAt(cell(to).lat, cell(to).lng)}, South Africa`],
    ]);
  });

  it('answers a place it has named before from the cache, without asking again, and asks once about a new one', async () => {
    // Prepare: the depot is geocoded with the first trip
    const { user, vehicle } = await givenTracked();
    const [depot, client, other] = placesApart(3);
    const yard = cell(depot);
    const [gate, bay] = [
      { lat: yard.lat + 0.00002, lng: yard.lng + 0.00001 },
      { lat: yard.lat - 0.00003, lng: yard.lng - 0.00004 },
    ];
    await ingest(aTrip(vehicle.imei, 6, gate, client));
    const before = amazon.received.length;
    // Act: back to the depot a few metres away (same 4-decimal cell), then on to a new place
    await ingest([...aTrip(vehicle.imei, 8, client, bay), ...aTrip(vehicle.imei, 10, bay, other)]);
    // Assess
    expect(amazon.received.slice(before).map((request) => request.body)).toEqual([
      { QueryPosition: [cell(other).lng, cell(other).lat], MaxResults: 1, IntendedUse: 'Storage' },
    ]);
    const places = await tripPlaces(user);
    expect(places).toHaveLength(3);
    expect(new Set(places.flat()).size).toBe(3);
  });

  it('asks nothing about a place inside a saved zone: the zone names it', async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [yard, client] = placesApart(2);
    expect(
      await api.post('addUserLocation', { api_key: user.key, description: 'Yard', latitude: yard.lat, longitude: yard.lng, radius: 0.2 }),
    ).toBeSuccess();
    const before = amazon.received.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, yard, client));
    // Assess
    expect(amazon.received.slice(before)).toHaveLength(1);
    expect((await tripPlaces(user))[0]?.[0]).toBe('Yard');
  });

  it.each<[string, Answer]>([
    ['HTTP 500', { status: 500, body: { message: 'internal' }, headers: { 'x-amzn-errortype': 'InternalServerException' } }],
    [
      'HTTP 403 (no permission)',
      { status: 403, body: { message: 'not authorized' }, headers: { 'x-amzn-errortype': 'AccessDeniedException' } },
    ],
    ['a body that is not JSON', { text: '<html>bad gateway</html>' }],
    [
      'a result without an address or title',
      { body: { PricingBucket: 'Core', ResultItems: [{ PlaceId: 'x', PlaceType: 'Street', Position: [28, -26] }] } },
    ],
    ['no answer within the timeout', 'hang'],
  ])('falls back to the gazetteer on %s, and asks again in a later batch', async (_case, answer) => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    amazon.answer = () => answer;
    if (answer === 'hang') useSettings(amazonSettings({ GEOCODING_TIMEOUT_MS: '300' }));
    // Act
    const outcome = await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    expect(outcome).toMatchObject({ trips: 1, failedIds: [] });
    expect(await tripPlaces(user)).toEqual([[gazetteerName(from), gazetteerName(to)]]);
    amazon.answer = amazonAnswer;
    useSettings(amazonSettings());
    const before = amazon.received.length;
    await ingest(aTrip(vehicle.imei, 9, to, from));
    expect(amazon.received.length - before).toBe(2);
  });

  it('counts every failure in the GeocodingFailures metric and logs only the first of a batch', async () => {
    // Prepare
    const { vehicle } = await givenTracked();
    amazon.answer = () => ({ status: 500, body: { message: 'internal' }, headers: { 'x-amzn-errortype': 'InternalServerException' } });
    const counted = vi.spyOn(metrics, 'addMetric');
    const warned = vi.spyOn(logger, 'warn');
    try {
      // Act
      await ingest(aTrip(vehicle.imei, 6, ...placesApart(2)));
      // Assess
      expect(counted.mock.calls.filter(([name]) => name === metricNames.geocodingFailures)).toEqual([
        [metricNames.geocodingFailures, 'Count', 1],
        [metricNames.geocodingFailures, 'Count', 1],
      ]);
      const logged = warned.mock.calls.filter(([message]) => String(message).startsWith('reverse geocoding failed'));
      expect(logged).toEqual([
        [expect.any(String), { provider: 'amazon', reason: 'geocoding provider amazon answered HTTP 500 (InternalServerException)' }],
      ]);
    } finally {
      counted.mockRestore();
      warned.mockRestore();
    }
  });

  it('makes at most GEOCODING_BATCH_CALLS calls in a batch; the other new places get the gazetteer name', async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    useSettings(amazonSettings({ GEOCODING_BATCH_CALLS: '1' }));
    const before = amazon.received.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    expect(amazon.received.length - before).toBe(1);
    const address = (point: LatLng) => `${streetAt(cell(point).lat, cell(point).lng)}, South Africa`;
    expect([
      [address(from), gazetteerName(to)],
      [gazetteerName(from), address(to)],
    ]).toContainEqual((await tripPlaces(user))[0]);
  });

  it('finishes a batch whose provider hangs, naming its places by the gazetteer', async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    amazon.answer = () => 'hang';
    useSettings(amazonSettings({ GEOCODING_TIMEOUT_MS: '200', GEOCODING_BATCH_BUDGET_MS: '400' }));
    // Act
    const outcome = await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess: the calls were cut by the timeout the Geocoder gave them (below), or this would never finish
    expect(outcome).toMatchObject({ trips: 1, failedIds: [] });
    expect((await tripPlaces(user))[0]).toEqual([gazetteerName(from), gazetteerName(to)]);
  });
});

describe("a batch's time budget, on a fake clock", () => {
  /** A provider that knows no address anywhere and keeps the timeout each call was given. */
  const recordingProvider = (minIntervalMs?: number) => {
    const timeouts: number[] = [];
    const provider: GeocodingProvider = {
      name: `recording-${randomUUID()}`,
      ...(minIntervalMs ? { minIntervalMs } : {}),
      address: async (_point, timeoutMs) => {
        timeouts.push(timeoutMs);
        return undefined;
      },
    };
    return { provider, timeouts };
  };

  beforeEach(() => useSettings({ GEOCODING_TIMEOUT_MS: '200', GEOCODING_BATCH_BUDGET_MS: '400', GEOCODING_BATCH_CALLS: '10' }));

  it('gives each call GEOCODING_TIMEOUT_MS, cut to what is left of the budget, and makes none once it is spent', async () => {
    // Prepare
    const { provider, timeouts } = recordingProvider();
    const clock = new FakeClock();
    const geocoder = new Geocoder(provider, clock);
    const places = placesApart(3);
    // Act
    await geocoder.address(places[0]);
    clock.advance(300);
    await geocoder.address(places[1]);
    clock.advance(100);
    await geocoder.address(places[2]);
    // Assess
    expect(timeouts).toEqual([200, 100]);
  });

  it("spaces the calls of a provider with a rate limit by its interval, within the budget's", async () => {
    // Prepare
    useSettings({ GEOCODING_TIMEOUT_MS: '200', GEOCODING_BATCH_BUDGET_MS: '2100', GEOCODING_BATCH_CALLS: '10' });
    const { provider, timeouts } = recordingProvider(1000);
    const clock = new FakeClock();
    const geocoder = new Geocoder(provider, clock);
    // Act
    for (const place of placesApart(4)) await geocoder.address(place);
    // Assess: the third starts 2 s after the first, with 0.1 s of the budget left; the fourth would start past it
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(timeouts).toEqual([200, 200, 100]);
  });
});

// ---- Google Geocoding and Nominatim (options) ---------------------------------------------------------

describe('Google Geocoding', () => {
  beforeEach(() => {
    google.answer = googleAnswer;
    useSettings({
      GEOCODING_PROVIDER: 'google',
      GOOGLE_GEOCODING_URL: `${google.url}/maps/api/geocode/json`,
      GOOGLE_GEOCODING_API_KEY: GOOGLE_KEY,
    });
  });

  it("names places by the first result's formatted_address, sending latlng and the configured key", async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    const before = google.requests.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    const asked = google.requests.slice(before);
    expect(asked.map((url) => [url.pathname, url.searchParams.get('key')])).toEqual([
      ['/maps/api/geocode/json', GOOGLE_KEY],
      ['/maps/api/geocode/json', GOOGLE_KEY],
    ]);
    expect(asked.map((url) => url.searchParams.get('latlng')).sort()).toEqual(
      [from, to].map((point) => `${cell(point).lat},${cell(point).lng}`).sort(),
    );
    expect(await tripPlaces(user)).toEqual([
      [`${streetAt(cell(from).lat, cell(from).lng)}, South Africa`, `${streetAt(cell(to).lat, cell(to).lng)}, South Africa`],
    ]);
  });

  it.each<[string, Answer]>([
    ['status ZERO_RESULTS (no address there)', { body: { results: [], status: 'ZERO_RESULTS' } }],
    ['status REQUEST_DENIED', { body: { error_message: 'The provided API key is invalid.', results: [], status: 'REQUEST_DENIED' } }],
    ['HTTP 500', { status: 500, text: 'Internal Server Error' }],
  ])('names the place by the gazetteer on %s', async (_case, answer) => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    google.answer = () => answer;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    expect(await tripPlaces(user)).toEqual([[gazetteerName(from), gazetteerName(to)]]);
  });

  it('caches "no address here" too: a place Google knows nothing about is asked about once', async () => {
    // Prepare
    const { vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    google.answer = () => ({ body: { results: [], status: 'ZERO_RESULTS' } });
    await ingest(aTrip(vehicle.imei, 6, from, to));
    const before = google.requests.length;
    // Act
    await ingest(aTrip(vehicle.imei, 9, to, from));
    // Assess
    expect(google.requests.length).toBe(before);
  });
});

describe('Nominatim', () => {
  beforeEach(() => {
    nominatim.answer = nominatimAnswer;
    useSettings({ GEOCODING_PROVIDER: 'nominatim', NOMINATIM_URL: `${nominatim.url}/` });
  });

  it('names places by display_name, asking /reverse in jsonv2 with a User-Agent that names the application', async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    const before = nominatim.received.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    const asked = nominatim.received.slice(before);
    expect(asked.map((request) => [request.url.pathname, request.url.searchParams.get('format'), request.headers['user-agent']])).toEqual([
      ['/reverse', 'jsonv2', NOMINATIM_USER_AGENT],
      ['/reverse', 'jsonv2', NOMINATIM_USER_AGENT],
    ]);
    expect(await tripPlaces(user)).toEqual([
      [
        `${streetAt(cell(from).lat, cell(from).lng)}, Gauteng, South Africa`,
        `${streetAt(cell(to).lat, cell(to).lng)}, Gauteng, South Africa`,
      ],
    ]);
  });

  it('names the place by the gazetteer when Nominatim is unable to geocode it', async () => {
    // Prepare
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    nominatim.answer = () => ({ body: { error: 'Unable to geocode' } });
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    expect(await tripPlaces(user)).toEqual([[gazetteerName(from), gazetteerName(to)]]);
  });
});

describe('the gazetteer (the local default)', () => {
  it('names a place outside every zone by its distance and direction from the nearest town, asking no provider', async () => {
    // Prepare
    useSettings({});
    const { user, vehicle } = await givenTracked();
    const [from, to] = placesApart(2);
    const before = amazon.requests.length + google.requests.length + nominatim.requests.length;
    // Act
    await ingest(aTrip(vehicle.imei, 6, from, to));
    // Assess
    expect(amazon.requests.length + google.requests.length + nominatim.requests.length).toBe(before);
    const [[start, stop]] = (await tripPlaces(user)) as [[string, string]];
    expect([start, stop]).toEqual([gazetteerName(from), gazetteerName(to)]);
    expect(start).toMatch(/^(\d+\.\d km (N|NE|E|SE|S|SW|W|NW) of )?[^,]+, ZA$/);
  });
});
