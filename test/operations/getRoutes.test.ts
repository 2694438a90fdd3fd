import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../shared/domain/time.ts';
import { api, callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { givenRoute, rawStops, stopsText } from '../support/routes-builders.ts';

describe('getRoutes', () => {
  it('lists every route of the user, oldest first, with stop count, totals and the vehicle', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const first = await givenRoute(user, { route_name: 'Morning run', stops: stopsText(rawStops(3)) });
    const second = await givenRoute(user, { route_name: 'Afternoon run', stops: stopsText(rawStops(4)), vehicle_uid: vehicle.vehicleUid });
    // Act
    const res = await callOperation('getRoutes', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.cnt).toBe(2);
    expect(res.body.routes).toStrictEqual([
      {
        route_uid: first.route_uid,
        route_name: 'Morning run',
        vehicle_uid: null,
        stop_cnt: 3,
        distance_km: first.totals.distance_km,
        duration_s: first.totals.duration_s,
        created_datetime: expect.any(String),
      },
      {
        route_uid: second.route_uid,
        route_name: 'Afternoon run',
        vehicle_uid: vehicle.vehicleUid,
        stop_cnt: 4,
        distance_km: 3,
        duration_s: 216,
        created_datetime: expect.any(String),
      },
    ]);
  });

  it("shows created_datetime in the user's offset", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const before = Date.now();
    await givenRoute(user);
    const after = Date.now();
    // Act
    const res = await callOperation('getRoutes', { api_key: user.key });
    // Assess
    const shown = String(res.body.routes[0]?.created_datetime);
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(shown >= formatDateTime(new Date(before - 1000), 120) && shown <= formatDateTime(new Date(after), 120)).toBe(true);
  });

  it('answers an empty list to a user without routes', async () => {
    const user = await givenUser();
    const res = await callOperation('getRoutes', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, routes: [] });
  });

  it("never shows another user's routes", async () => {
    const owner = await givenUser();
    await givenRoute(owner);
    const other = await givenUser();
    const res = await callOperation('getRoutes', { api_key: other.key });
    expect(res.body).toMatchObject({ cnt: 0, routes: [] });
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getRoutes', { api_key: user.key });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });

  it('answers the common key errors', async () => {
    expect(await callOperation('getRoutes')).toBeError(401, 'api key missing');
    expect(await callOperation('getRoutes', { api_key: 'not-a-key' })).toBeError(401, 'unknown api key');
  });
});
