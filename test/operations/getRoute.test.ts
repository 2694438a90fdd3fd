import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenRoute, rawStops, stopsText } from '../support/routes-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const NOT_FOUND = 'route not found or not linked to this api key';

describe('getRoute', () => {
  it('returns the route exactly as addRoute answered it', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const created = await givenRoute(user, { stops: stopsText(rawStops(3)), vehicle_uid: vehicle.vehicleUid });
    // Act
    const res = await callOperation('getRoute', { api_key: user.key, route_uid: created.route_uid });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body).sort()).toEqual(['error_msg', 'result', 'route', 'version']);
    expect(res.body.route).toStrictEqual(created);
  });

  it('keeps the stops as they were when a location is later edited or deleted', async () => {
    // Prepare
    const user = await givenUser();
    const depot = await givenUserLocation(user, { description: 'Depot' });
    const [, client] = rawStops(2, { lat: depot.latitude, lng: depot.longitude });
    const created = await givenRoute(user, { stops: stopsText([{ user_location_uid: depot.userLocationUid }, client]) });
    await callOperation('editUserLocation', { api_key: user.key, user_location_uid: depot.userLocationUid, description: 'Old depot' });
    await callOperation('deleteUserLocation', { api_key: user.key, user_location_uid: created.stops[1].user_location_uid });
    // Act
    const res = await callOperation('getRoute', { api_key: user.key, route_uid: created.route_uid });
    // Assess
    expect(res.body.route.stops).toStrictEqual(created.stops);
  });

  it("answers not found for another user's route", async () => {
    const owner = await givenUser();
    const route = await givenRoute(owner);
    const other = await givenUser();
    const res = await callOperation('getRoute', { api_key: other.key, route_uid: route.route_uid });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it('answers not found for an id that was never issued', async () => {
    const user = await givenUser();
    const res = await callOperation('getRoute', { api_key: user.key, route_uid: 999999999999 });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it.each([undefined, '', 'abc', '2.5', '1e3', '99999999999999999999', '١٢'])('refuses route_uid %j', async (routeUid) => {
    const user = await givenUser();
    const res = await callOperation('getRoute', { api_key: user.key, route_uid: routeUid });
    expect(res).toBeError(400, 'route_uid is required and must be an integer');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getRoute', { api_key: user.key, route_uid: 1 });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });
});
