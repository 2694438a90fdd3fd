import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { givenPolygonLocation, givenUserLocation, storedLocation } from '../support/user-locations-builders.ts';

describe('deleteUserLocation', () => {
  it('deletes the location for good and answers its id', async () => {
    // Prepare
    const user = await givenUser();
    const kept = await givenUserLocation(user, { description: 'Kept' });
    const doomed = await givenPolygonLocation(user);
    // Act
    const res = await callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: doomed.userLocationUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.user_location_uid).toBe(doomed.userLocationUid);
    const got = await callOperation('getUserLocation', { api_key: user.key, user_location_uid: doomed.userLocationUid });
    expect(got).toBeError(404, 'location not found or not linked to this api key');
    const list = await callOperation('getUserLocations', { api_key: user.key });
    expect(list.body.locations.map((l: { user_location_uid: number }) => l.user_location_uid)).toEqual([kept.userLocationUid]);
  });

  it('accepts a JSON body', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await callOperation(
      'deleteUserLocation',
      { api_key: user.key, user_location_uid: location.userLocationUid },
      { json: true },
    );
    expect(res).toBeSuccess();
  });

  it('answers not found to a second delete', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    await callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    const res = await callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it('lets exactly one of several simultaneous deletes succeed', async () => {
    // Prepare
    const user = await givenUser();
    const location = await givenUserLocation(user);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid }),
      ),
    );
    // Assess
    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 200))
      expect(res).toBeError(404, 'location not found or not linked to this api key');
  });

  it.each([undefined, '', 'abc', '2.5', '99999999999999999999'])('refuses user_location_uid %j', async (userLocationUid) => {
    const user = await givenUser();
    const res = await callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: userLocationUid });
    expect(res).toBeError(400, 'user_location_uid is required and must be an integer');
  });

  it("answers not found for another user's location and leaves it in place", async () => {
    // Prepare
    const owner = await givenUser();
    const location = await givenUserLocation(owner);
    const stranger = await givenUser();
    // Act
    const res = await callOperation('deleteUserLocation', { api_key: stranger.key, user_location_uid: location.userLocationUid });
    // Assess
    expect(res).toBeError(404, 'location not found or not linked to this api key');
    expect(await storedLocation(owner, location.userLocationUid)).toEqual(location);
  });

  it('refuses a GET with the method message and deletes nothing', async () => {
    const user = await givenUser();
    const location = await givenUserLocation(user);
    const res = await api.get('deleteUserLocation', { api_key: user.key, user_location_uid: location.userLocationUid });
    expect(res).toBeError(405, 'method not allowed, use POST');
    expect(await storedLocation(user, location.userLocationUid)).toEqual(location);
  });
});
