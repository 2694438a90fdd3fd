import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { SQUARE_AROUND_DEPOT, storedLocation } from '../support/user-locations-builders.ts';

const depot = { description: 'Depot', latitude: '-26.2041', longitude: '28.0473' };
const squareText = JSON.stringify(SQUARE_AROUND_DEPOT);

describe('addUserLocation', () => {
  it('saves a point with the defaults of the spec and answers its integer id', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body).sort()).toEqual(['error_msg', 'result', 'user_location_uid', 'version']);
    expect(Number.isInteger(res.body.user_location_uid)).toBe(true);
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: res.body.user_location_uid });
    expect(got.body.location).toStrictEqual({
      user_location_uid: res.body.user_location_uid,
      latitude: -26.2041,
      longitude: 28.0473,
      description: 'Depot',
      icon: '',
      color: 'blue',
      radius: 1,
      location_type: 'point',
      points: '',
      speed: 0,
      no_go: 0,
      only_push: 0,
    });
  });

  it('saves every optional field given in a form body', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addUserLocation', {
      api_key: user.key,
      ...depot,
      color: 'red',
      radius: '0.25',
      icon: 'truck',
      speed: '60',
      no_go: '1',
      only_push: '1',
    });
    // Assess
    expect(res).toBeSuccess();
    const stored = await storedLocation(user, res.body.user_location_uid);
    expect(stored).toMatchObject({ color: 'red', radiusKm: 0.25, icon: 'truck', speedLimit: 60, noGo: true, onlyPush: true });
  });

  it('saves a polygon from a JSON body with numbers and points as an array, returning the points as normalized text', async () => {
    // Prepare
    const user = await givenUser();
    const points = SQUARE_AROUND_DEPOT.map((vertex) => ({ ...vertex, label: 'ignored' }));
    // Act
    const res = await api.post(
      'addUserLocation',
      {
        api_key: user.key,
        description: 'Yard',
        latitude: -26.205,
        longitude: 28.045,
        location_type: 'polygon',
        points: JSON.stringify(points),
        no_go: 1,
      },
      { json: true },
    );
    // Assess
    expect(res).toBeSuccess();
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: res.body.user_location_uid });
    expect(got.body.location).toMatchObject({ location_type: 'polygon', points: squareText, latitude: -26.205, no_go: 1 });
  });

  it('accepts the points of a JSON body as a real array too', async () => {
    // Prepare
    const user = await givenUser();
    const body = JSON.stringify({ api_key: user.key, ...depot, location_type: 'polygon', points: SQUARE_AROUND_DEPOT });
    // Act
    const res = await callOperation('addUserLocation', {}, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(res).toBeSuccess();
    expect((await storedLocation(user, res.body.user_location_uid)).points).toEqual(SQUARE_AROUND_DEPOT);
  });

  it('reads location_type without regard to case or spaces', async () => {
    const user = await givenUser();
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot, location_type: ' Polygon ', points: squareText });
    expect(res).toBeSuccess();
    expect((await storedLocation(user, res.body.user_location_uid)).locationType).toBe('polygon');
  });

  it("keeps a point's points empty, ignoring any points sent", async () => {
    const user = await givenUser();
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot, points: 'not even json' });
    expect(res).toBeSuccess();
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: res.body.user_location_uid });
    expect(got.body.location).toMatchObject({ location_type: 'point', points: '' });
  });

  it('takes a blank colour as blue', async () => {
    const user = await givenUser();
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot, color: ' ' });
    expect((await storedLocation(user, res.body.user_location_uid)).color).toBe('blue');
  });

  it('keeps unicode text and trims the description', async () => {
    const user = await givenUser();
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot, description: '  Dépôt 北京 🚚 ', icon: '📍' });
    expect(res).toBeSuccess();
    expect(await storedLocation(user, res.body.user_location_uid)).toMatchObject({ description: 'Dépôt 北京 🚚', icon: '📍' });
  });

  it('accepts the edges of the coordinate ranges', async () => {
    const user = await givenUser();
    for (const [latitude, longitude] of [
      ['90', '180'],
      ['-90', '-180'],
      ['0', '0'],
    ]) {
      const res = await callOperation('addUserLocation', { api_key: user.key, description: 'Edge', latitude, longitude });
      expect(res).toBeSuccess();
    }
  });

  it('gives different ids to locations added at the same time', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => callOperation('addUserLocation', { api_key: user.key, ...depot, description: `Stop ${i}` })),
    );
    // Assess
    const ids = responses.map((res) => res.body.user_location_uid);
    expect(new Set(ids).size).toBe(10);
    const list = await callOperation('getUserLocations', { api_key: user.key });
    expect(list.body.cnt).toBe(10);
  });
});

describe('addUserLocation refusals', () => {
  it.each([
    ['description is missing', { latitude: '1', longitude: '2' }, 'description is required'],
    ['description is blank', { description: '   ', latitude: '1', longitude: '2' }, 'description is required'],
    ['description is too long', { description: 'x'.repeat(256), latitude: '1', longitude: '2' }, 'description is too long (max 255 chars)'],
    ['everything is missing, description first', {}, 'description is required'],
    ['latitude is missing', { description: 'D', longitude: '2' }, 'latitude is required and must be numeric'],
    ['latitude is empty', { description: 'D', latitude: '', longitude: '2' }, 'latitude is required and must be numeric'],
    ['latitude is text', { description: 'D', latitude: 'north', longitude: '2' }, 'latitude is required and must be numeric'],
    ['latitude is in exponent form', { description: 'D', latitude: '1e30', longitude: '2' }, 'latitude is required and must be numeric'],
    ['latitude is an Arabic-Indic digit', { description: 'D', latitude: '٣', longitude: '2' }, 'latitude is required and must be numeric'],
    ['latitude is above 90', { description: 'D', latitude: '90.0001', longitude: '2' }, 'latitude out of range'],
    ['latitude is below -90', { description: 'D', latitude: '-91', longitude: '2' }, 'latitude out of range'],
    ['latitude is huge', { description: 'D', latitude: '99999999999999999999', longitude: '2' }, 'latitude out of range'],
    ['both coordinates are bad, latitude first', { description: 'D', latitude: '100', longitude: 'x' }, 'latitude out of range'],
    ['longitude is missing', { description: 'D', latitude: '1' }, 'longitude is required and must be numeric'],
    ['longitude is text', { description: 'D', latitude: '1', longitude: 'east' }, 'longitude is required and must be numeric'],
    ['longitude is above 180', { description: 'D', latitude: '1', longitude: '180.5' }, 'longitude out of range'],
    ['longitude is below -180', { description: 'D', latitude: '1', longitude: '-181' }, 'longitude out of range'],
    ['location_type is unknown', { ...depot, location_type: 'circle' }, "location_type must be 'point' or 'polygon'"],
    ['location_type is empty', { ...depot, location_type: '' }, "location_type must be 'point' or 'polygon'"],
    ['radius is 0', { ...depot, radius: '0' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['radius is negative', { ...depot, radius: '-1' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['radius is text', { ...depot, radius: 'wide' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['radius is huge', { ...depot, radius: '99999999999999999999' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['radius is 1e30', { ...depot, radius: '1e30' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['speed is negative', { ...depot, speed: '-5' }, 'speed must be a number from 0 to 1000 (km/h)'],
    ['speed is text', { ...depot, speed: 'fast' }, 'speed must be a number from 0 to 1000 (km/h)'],
    ['speed is huge', { ...depot, speed: '99999999999999999999' }, 'speed must be a number from 0 to 1000 (km/h)'],
    ['no_go is 2', { ...depot, no_go: '2' }, 'no_go must be 0 or 1'],
    ['no_go is yes', { ...depot, no_go: 'yes' }, 'no_go must be 0 or 1'],
    ['only_push is -1', { ...depot, only_push: '-1' }, 'only_push must be 0 or 1'],
    ['color is too long', { ...depot, color: 'c'.repeat(51) }, 'color is too long (max 50 chars)'],
    ['icon is too long', { ...depot, icon: 'i'.repeat(256) }, 'icon is too long (max 255 chars)'],
  ])('refuses when %s', async (_case, params, message) => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addUserLocation', { api_key: user.key, ...params });
    // Assess
    expect(res).toBeError(400, message);
    expect((await callOperation('getUserLocations', { api_key: user.key })).body.cnt).toBe(0);
  });

  it.each([
    ['no points', undefined, 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon'],
    ['empty points', '', 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon'],
    ['points that are not JSON', '[{lat:1', 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon'],
    ['points that are an object', '{"lat":1,"lng":2}', 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon'],
    [
      'two vertices',
      JSON.stringify(SQUARE_AROUND_DEPOT.slice(0, 2)),
      'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon',
    ],
    [
      'a vertex without lng',
      '[{"lat":1,"lng":2},{"lat":3},{"lat":5,"lng":6}]',
      'points vertex 2 must be an object with numeric lat and lng',
    ],
    [
      'a vertex with text',
      '[{"lat":1,"lng":2},{"lat":3,"lng":4},{"lat":"5","lng":6}]',
      'points vertex 3 must be an object with numeric lat and lng',
    ],
    ['a vertex out of range', '[{"lat":1,"lng":2},{"lat":95,"lng":4},{"lat":5,"lng":6}]', 'points vertex 2 is out of range'],
    ['a vertex of 1e30', '[{"lat":1e30,"lng":2},{"lat":3,"lng":4},{"lat":5,"lng":6}]', 'points vertex 1 is out of range'],
  ])('refuses a polygon with %s', async (_case, points, message) => {
    const user = await givenUser();
    const res = await callOperation('addUserLocation', { api_key: user.key, ...depot, location_type: 'polygon', points });
    expect(res).toBeError(400, message);
  });

  it('answers bad JSON-typed values with a 400, never a 500', async () => {
    // Prepare
    const user = await givenUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...depot, latitude: 1e30 }, 'latitude out of range'],
      [{ ...depot, latitude: null }, 'latitude is required and must be numeric'],
      [{ ...depot, longitude: [1] }, 'longitude is required and must be numeric'],
      [{ ...depot, description: { text: 'x' } }, 'description is required'],
      [{ ...depot, radius: 1e30 }, 'radius must be a number greater than 0 and at most 20000 (km)'],
      [{ ...depot, no_go: true }, 'no_go must be 0 or 1'],
      [{ ...depot, location_type: 1 }, "location_type must be 'point' or 'polygon'"],
      [
        { ...depot, location_type: 'polygon', points: { lat: 1, lng: 2 } },
        'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon',
      ],
    ];
    for (const [params, message] of cases) {
      // Act
      const res = await api.post(
        'addUserLocation',
        {},
        {
          rawBody: JSON.stringify({ api_key: user.key, ...params }),
          headers: { 'Content-Type': 'application/json' },
        },
      );
      // Assess
      expect(res).toBeError(400, message);
    }
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const res = await api.get('addUserLocation', { api_key: user.key, ...depot });
    expect(res).toBeError(405, 'method not allowed, use POST');
  });

  it('refuses a request without an api key', async () => {
    const res = await callOperation('addUserLocation', depot);
    expect(res).toBeError(401, 'api key missing');
  });
});
