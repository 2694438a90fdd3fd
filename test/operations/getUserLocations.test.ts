import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenPolygonLocation, givenUserLocation, SQUARE_AROUND_DEPOT } from '../support/user-locations-builders.ts';

describe('getUserLocations', () => {
  it('answers an empty list to a user without locations', async () => {
    const user = await givenUser();
    const res = await callOperation('getUserLocations', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, locations: [] });
  });

  it("lists points and polygons in the order they were added, with the spec's types", async () => {
    // Prepare
    const user = await givenUser();
    const depot = await givenUserLocation(user);
    const yard = await givenPolygonLocation(user, { only_push: 1 });
    // Act
    const res = await callOperation('getUserLocations', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(2);
    expect(res.body.locations).toStrictEqual([
      {
        user_location_uid: depot.userLocationUid,
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
      },
      {
        user_location_uid: yard.userLocationUid,
        latitude: -26.2041,
        longitude: 28.0473,
        description: 'Yard',
        icon: '',
        color: 'blue',
        radius: 1,
        location_type: 'polygon',
        points: JSON.stringify(SQUARE_AROUND_DEPOT),
        speed: 0,
        no_go: 0,
        only_push: 1,
      },
    ]);
  });

  it('returns every location, not one page', async () => {
    // Prepare: polygons of 1000 vertices make each item ~40 KB, so 30 of them span two DynamoDB pages
    const user = await givenUser();
    const points = Array.from({ length: 1000 }, (_, i) => ({ lat: -26 - i / 1e5 - 0.123456789, lng: 28 + (i % 2) * 0.123456789 }));
    await Promise.all(Array.from({ length: 30 }, () => givenPolygonLocation(user, { points })));
    // Act
    const res = await callOperation('getUserLocations', { api_key: user.key });
    // Assess
    expect(res.body.cnt).toBe(30);
    expect(res.body.locations).toHaveLength(30);
  });

  it("never shows another user's locations", async () => {
    // Prepare
    const owner = await givenUser();
    await givenUserLocation(owner);
    const stranger = await givenUser();
    const own = await givenUserLocation(stranger, { description: 'Mine' });
    // Act
    const res = await callOperation('getUserLocations', { api_key: stranger.key });
    // Assess
    expect(res.body.cnt).toBe(1);
    expect(res.body.locations[0]).toMatchObject({ user_location_uid: own.userLocationUid, description: 'Mine' });
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getUserLocations', { api_key: user.key });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });

  it('refuses an unknown api key', async () => {
    const res = await callOperation('getUserLocations', { api_key: 'not-a-key' });
    expect(res).toBeError(401, 'unknown api key');
  });
});
