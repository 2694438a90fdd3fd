/**
 * The pipeline's zones across batches (shared/pipeline/zone-cache.ts): kept while the user's locations stand, read
 * again after any add, edit or delete through the API, and after addRoute saves new stops as locations.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newLocation } from '../../shared/domain/user-location.ts';
import { currentUserZones } from '../../shared/pipeline/zone-cache.ts';
import { dynamo } from '../../shared/store/client.ts';
import { newLocationPut, numberLocations } from '../../shared/store/user-locations.ts';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { rawStops, stopsText } from '../support/routes-builders.ts';

const DEPOT = { description: 'Depot', latitude: '-26.2041', longitude: '28.0473' };
const described = async (userUid: number) => (await currentUserZones(userUid)).zones.map((location) => location.description).sort();

describe('the zones a batch walks', () => {
  it('are kept, indexed, while the user changes no location, so a batch reads one small item, not every zone', async () => {
    // Prepare: a location written behind the store's back, without moving the version
    const user = await givenUser();
    await api.post('addUserLocation', { api_key: user.key, ...DEPOT });
    const first = await currentUserZones(user.userUid);
    const [unseen] = await numberLocations([newLocation({ description: 'Unseen', latitude: -26.1, longitude: 28.1 })]);
    await dynamo().send(new PutCommand(newLocationPut(user.userUid, unseen as NonNullable<typeof unseen>)));
    // Act
    const kept = await currentUserZones(user.userUid);
    // Assess
    expect(kept).toBe(first);
    expect(await described(user.userUid)).toEqual(['Depot']);
  });

  it('are read again after a location is added, edited or deleted through the API', async () => {
    // Prepare
    const user = await givenUser();
    const seen: string[][] = [await described(user.userUid)];
    // Act
    const added = await api.post('addUserLocation', { api_key: user.key, ...DEPOT });
    seen.push(await described(user.userUid));
    await api.post('editUserLocation', { api_key: user.key, user_location_uid: added.body.user_location_uid, description: 'Yard' });
    seen.push(await described(user.userUid));
    await api.post('deleteUserLocation', { api_key: user.key, user_location_uid: added.body.user_location_uid });
    seen.push(await described(user.userUid));
    // Assess
    expect(seen).toEqual([[], ['Depot'], ['Yard'], []]);
  });

  it("are read again after addRoute saves a route's new stops as locations", async () => {
    // Prepare
    const user = await givenUser();
    const before = await described(user.userUid);
    // Act
    const route = await api.post('addRoute', { api_key: user.key, route_name: 'Morning run', stops: stopsText(rawStops(3)) });
    // Assess
    expect(route.status).toBe(200);
    expect(before).toEqual([]);
    expect(await described(user.userUid)).toHaveLength(3);
  });
});
