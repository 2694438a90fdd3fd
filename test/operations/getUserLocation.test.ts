import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenPolygonLocation, givenUserLocation, SQUARE_AROUND_DEPOT } from '../support/user-locations-builders.ts';

describe('getUserLocation', () => {
  it("returns every field of the location record with the spec's types", async () => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user, { color: 'green', radius: 0.5, icon: 'fuel', speed: 40, no_go: 1 });
    // Act
    const res = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.location).toStrictEqual({
      user_location_uid: location.userLocationUid,
      latitude: -26.2041,
      longitude: 28.0473,
      description: 'Depot',
      icon: 'fuel',
      color: 'green',
      radius: 0.5,
      location_type: 'point',
      points: '',
      speed: 40,
      no_go: 1,
      only_push: 0,
    });
  });

  it("returns a polygon's points as JSON text of its vertices", async () => {
    const user = await givenUser();
    const yard = await givenPolygonLocation(user);
    const res = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: yard.userLocationUid });
    expect(res.body.location).toMatchObject({ location_type: 'polygon', points: JSON.stringify(SQUARE_AROUND_DEPOT) });
    expect(JSON.parse(res.body.location.points)).toEqual(SQUARE_AROUND_DEPOT);
  });

  it.each([undefined, '', 'abc', '1.5', '1e3', '99999999999999999999', '١٢'])('refuses user_location_uid %j', async (userLocationUid) => {
    const user = await givenUser();
    const res = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: userLocationUid });
    expect(res).toBeError(400, 'user_location_uid is required and must be an integer');
  });

  it('answers not found for an id that does not exist', async () => {
    const user = await givenUser();
    const res = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: 999999999 });
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it("answers not found for another user's location", async () => {
    // Prepare
    const owner = await givenUser();
    const location = await givenUserLocation(owner);
    const stranger = await givenUser();
    // Act
    const res = await callOperation('getUserLocation', { api_key: stranger.key, user_location_uid: location.userLocationUid });
    // Assess
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await api.post('getUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });
});
