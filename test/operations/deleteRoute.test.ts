import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenRoute, rawStops, scheduledRoutes, stopsText } from '../support/routes-builders.ts';

const NOT_FOUND = 'route not found or not linked to this api key';

describe('deleteRoute', () => {
  it('deletes the route and its vehicle schedule, keeping the locations it created', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const kept = await givenRoute(user, { vehicle_uid: vehicle.vehicleUid });
    const doomed = await givenRoute(user, { stops: stopsText(rawStops(2)), vehicle_uid: vehicle.vehicleUid });
    // Act
    const res = await callOperation('deleteRoute', { api_key: user.key, route_uid: doomed.route_uid });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body).sort()).toEqual(['error_msg', 'result', 'route_uid', 'version']);
    expect(res.body.route_uid).toBe(doomed.route_uid);
    expect(await callOperation('getRoute', { api_key: user.key, route_uid: doomed.route_uid })).toBeError(404, NOT_FOUND);
    const list = await callOperation('getRoutes', { api_key: user.key });
    expect(list.body.routes.map((route: { route_uid: number }) => route.route_uid)).toEqual([kept.route_uid]);
    expect(await scheduledRoutes(vehicle.vehicleUid)).toEqual([kept.route_uid]);
    const locations = await callOperation('getUserLocations', { api_key: user.key });
    expect(locations.body.cnt).toBe(5);
  });

  it('deletes a route without a vehicle', async () => {
    const user = await givenUser();
    const route = await givenRoute(user);
    const res = await callOperation('deleteRoute', { api_key: user.key, route_uid: route.route_uid });
    expect(res).toBeSuccess();
  });

  it('accepts a JSON body', async () => {
    const user = await givenUser();
    const route = await givenRoute(user);
    const res = await callOperation('deleteRoute', { api_key: user.key, route_uid: route.route_uid }, { json: true });
    expect(res).toBeSuccess();
  });

  it('answers not found to a second delete', async () => {
    const user = await givenUser();
    const route = await givenRoute(user);
    await callOperation('deleteRoute', { api_key: user.key, route_uid: route.route_uid });
    const res = await callOperation('deleteRoute', { api_key: user.key, route_uid: route.route_uid });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it('lets exactly one of several simultaneous deletes succeed', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const route = await givenRoute(user, { vehicle_uid: vehicle.vehicleUid });
    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => callOperation('deleteRoute', { api_key: user.key, route_uid: route.route_uid })),
    );
    // Assess
    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 200)) expect(res).toBeError(404, NOT_FOUND);
    expect(await scheduledRoutes(vehicle.vehicleUid)).toEqual([]);
  });

  it("answers not found for another user's route and leaves it and its schedule in place", async () => {
    // Prepare
    const owner = await givenUser();
    const vehicle = await givenVehicle(owner);
    const route = await givenRoute(owner, { vehicle_uid: vehicle.vehicleUid });
    const other = await givenUser();
    // Act
    const res = await callOperation('deleteRoute', { api_key: other.key, route_uid: route.route_uid });
    // Assess
    expect(res).toBeError(404, NOT_FOUND);
    expect(await callOperation('getRoute', { api_key: owner.key, route_uid: route.route_uid })).toBeSuccess();
    expect(await scheduledRoutes(vehicle.vehicleUid)).toEqual([route.route_uid]);
  });

  it.each([undefined, '', 'abc', '2.5', '1e30', '99999999999999999999', '🚚'])('refuses route_uid %j', async (routeUid) => {
    const user = await givenUser();
    const res = await callOperation('deleteRoute', { api_key: user.key, route_uid: routeUid });
    expect(res).toBeError(400, 'route_uid is required and must be an integer');
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const route = await givenRoute(user);
    const res = await api.get('deleteRoute', { api_key: user.key, route_uid: route.route_uid });
    expect(res).toBeError(405, 'method not allowed, use POST');
    expect(await callOperation('getRoute', { api_key: user.key, route_uid: route.route_uid })).toBeSuccess();
  });
});
