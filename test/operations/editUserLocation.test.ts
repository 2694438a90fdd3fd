import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenPolygonLocation, givenUserLocation, SQUARE_AROUND_DEPOT, storedLocation } from '../support/user-locations-builders.ts';

const triangle = [
  { lat: 1, lng: 1 },
  { lat: 1, lng: 2 },
  { lat: 2, lng: 1 },
];
const POINTS_REQUIRED = 'points must be a JSON array of at least 3 {lat,lng} vertices for a polygon';

describe('editUserLocation', () => {
  it('changes the fields given and keeps every field omitted', async () => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user, { color: 'green', icon: 'fuel', speed: 40, no_go: 1 });
    // Act
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: location.userLocationUid,
      description: 'Main depot',
      latitude: '-26.3',
      radius: '2.5',
    });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.user_location_uid).toBe(location.userLocationUid);
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    expect(got.body.location).toStrictEqual({
      user_location_uid: location.userLocationUid,
      latitude: -26.3,
      longitude: 28.0473,
      description: 'Main depot',
      icon: 'fuel',
      color: 'green',
      radius: 2.5,
      location_type: 'point',
      points: '',
      speed: 40,
      no_go: 1,
      only_push: 0,
    });
  });

  it('changes every optional field through a JSON body', async () => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user);
    // Act
    const res = await api.post(
      'editUserLocation',
      {
        api_key: user.key,
        user_location_uid: location.userLocationUid,
        longitude: 28.1,
        color: 'red',
        icon: 'home',
        speed: 0.5,
        no_go: 1,
        only_push: 1,
      },
      { json: true },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(await storedLocation(user, location.userLocationUid)).toMatchObject({
      longitude: 28.1,
      color: 'red',
      icon: 'home',
      speedLimit: 0.5,
      noGo: true,
      onlyPush: true,
      description: 'Depot',
    });
  });

  it('changes nothing and succeeds when only the id is given', async () => {
    const user = await givenUser();
    const location = await givenPolygonLocation(user);
    const res = await callOperation('editUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    expect(res).toBeSuccess();
    expect(await storedLocation(user, location.userLocationUid)).toEqual(location);
  });

  it('resets a blanked colour to blue and clears a blanked icon', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user, { color: 'red', icon: 'truck' });
    await callOperation('editUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid, color: '', icon: '' });
    expect(await storedLocation(user, location.userLocationUid)).toMatchObject({ color: 'blue', icon: '' });
  });

  it('can set the flags back to 0', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user, { no_go: 1, only_push: 1 });
    await callOperation('editUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid, no_go: '0', only_push: 0 });
    expect(await storedLocation(user, location.userLocationUid)).toMatchObject({ noGo: false, onlyPush: false });
  });

  it('keeps both edits when two requests change different fields at the same time', async () => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const uid = location.userLocationUid;
    // Act
    const [first, second] = await Promise.all([
      callOperation('editUserLocation', { api_key: user.key, user_location_uid: uid, description: 'Renamed' }),
      callOperation('editUserLocation', { api_key: user.key, user_location_uid: uid, color: 'red' }),
    ]);
    // Assess
    expect(first).toBeSuccess();
    expect(second).toBeSuccess();
    expect(await storedLocation(user, uid)).toMatchObject({ description: 'Renamed', color: 'red' });
  });
});

describe('editUserLocation changing the shape', () => {
  it('turns a point into a polygon when valid points come with it', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: location.userLocationUid,
      location_type: 'polygon',
      points: JSON.stringify(triangle),
    });
    expect(res).toBeSuccess();
    expect(await storedLocation(user, location.userLocationUid)).toMatchObject({ locationType: 'polygon', points: triangle });
  });

  it('refuses to turn a point into a polygon without points', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: location.userLocationUid,
      location_type: 'polygon',
    });
    expect(res).toBeError(400, POINTS_REQUIRED);
    expect(await storedLocation(user, location.userLocationUid)).toEqual(location);
  });

  it("keeps a polygon's stored points when the type is restated without points", async () => {
    const user = await givenUser();
    const yard = await givenPolygonLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: yard.userLocationUid,
      location_type: 'polygon',
      description: 'Yard 2',
    });
    expect(res).toBeSuccess();
    expect(await storedLocation(user, yard.userLocationUid)).toMatchObject({
      locationType: 'polygon',
      points: SQUARE_AROUND_DEPOT,
      description: 'Yard 2',
    });
  });

  it("replaces a polygon's points, normalized", async () => {
    const user = await givenUser();
    const yard = await givenPolygonLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: yard.userLocationUid,
      points: ' [ {"lng":1, "lat":1, "z":0}, {"lat":1,"lng":2}, {"lat":2,"lng":1} ] ',
    });
    expect(res).toBeSuccess();
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: yard.userLocationUid });
    expect(got.body.location.points).toBe(JSON.stringify(triangle));
  });

  it('clears the points when a polygon becomes a point', async () => {
    const user = await givenUser();
    const yard = await givenPolygonLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: yard.userLocationUid,
      location_type: 'point',
      points: JSON.stringify(triangle),
    });
    expect(res).toBeSuccess();
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: yard.userLocationUid });
    expect(got.body.location).toMatchObject({ location_type: 'point', points: '' });
  });

  it('ignores points sent for a location that stays a point', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await callOperation('editUserLocation', {
      api_key: user.key,
      user_location_uid: location.userLocationUid,
      points: JSON.stringify(triangle),
    });
    expect(res).toBeSuccess();
    expect(await storedLocation(user, location.userLocationUid)).toMatchObject({ locationType: 'point', points: [] });
  });

  it.each([
    ['blank points', '', POINTS_REQUIRED],
    ['two vertices', JSON.stringify(triangle.slice(0, 2)), POINTS_REQUIRED],
    ['a vertex out of range', '[{"lat":1,"lng":1},{"lat":1,"lng":200},{"lat":2,"lng":1}]', 'points vertex 2 is out of range'],
  ])('refuses new points of a polygon with %s and keeps the old ones', async (_case, points, message) => {
    const user = await givenUser();
    const yard = await givenPolygonLocation(user);
    const res = await callOperation('editUserLocation', { api_key: user.key, user_location_uid: yard.userLocationUid, points });
    expect(res).toBeError(400, message);
    expect(await storedLocation(user, yard.userLocationUid)).toEqual(yard);
  });
});

describe('editUserLocation refusals', () => {
  it.each([
    ['user_location_uid is missing', { description: 'X' }, 'user_location_uid is required and must be an integer'],
    ['user_location_uid is text', { user_location_uid: 'abc' }, 'user_location_uid is required and must be an integer'],
    ['user_location_uid is huge', { user_location_uid: '99999999999999999999' }, 'user_location_uid is required and must be an integer'],
  ])('refuses when %s', async (_case, params, message) => {
    const user = await givenUser();
    const res = await callOperation('editUserLocation', { api_key: user.key, ...params });
    expect(res).toBeError(400, message);
  });

  it.each([
    ['description is empty', { description: '' }, 'description may not be blank'],
    ['description is spaces', { description: '   ' }, 'description may not be blank'],
    ['description is too long', { description: 'd'.repeat(256) }, 'description is too long (max 255 chars)'],
    ['latitude is above 90', { latitude: '90.5' }, 'latitude out of range'],
    ['latitude is huge', { latitude: '99999999999999999999' }, 'latitude out of range'],
    ['latitude is text', { latitude: 'north' }, 'latitude is required and must be numeric'],
    ['longitude is below -180', { longitude: '-180.01' }, 'longitude out of range'],
    ['longitude is 1e30', { longitude: '1e30' }, 'longitude is required and must be numeric'],
    ['location_type is unknown', { location_type: 'circle' }, "location_type must be 'point' or 'polygon'"],
    ['radius is 0', { radius: '0' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['radius is 20001', { radius: '20001' }, 'radius must be a number greater than 0 and at most 20000 (km)'],
    ['speed is negative', { speed: '-1' }, 'speed must be a number from 0 to 1000 (km/h)'],
    ['no_go is 2', { no_go: '2' }, 'no_go must be 0 or 1'],
    ['only_push is empty', { only_push: '' }, 'only_push must be 0 or 1'],
  ])('refuses when %s and changes nothing', async (_case, params, message) => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user);
    // Act
    const res = await callOperation('editUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid, ...params });
    // Assess
    expect(res).toBeError(400, message);
    expect(await storedLocation(user, location.userLocationUid)).toEqual(location);
  });

  it('answers not found for an id that does not exist', async () => {
    const user = await givenUser();
    const res = await callOperation('editUserLocation', { api_key: user.key, user_location_uid: 999999999, description: 'X' });
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it("answers not found for another user's location and leaves it unchanged", async () => {
    // Prepare
    const owner = await givenUser();
    const location = await givenUserLocation(owner);
    const stranger = await givenUser();
    // Act
    const res = await api.post(
      'editUserLocation',
      { api_key: stranger.key, user_location_uid: location.userLocationUid, description: 'Stolen', no_go: 1 },
      { json: true },
    );
    // Assess
    expect(res).toBeError(404, 'location not found or not linked to this api key');
    expect(await storedLocation(owner, location.userLocationUid)).toEqual(location);
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await api.get('editUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid, description: 'X' });
    expect(res).toBeError(405, 'method not allowed, use POST');
  });
});
