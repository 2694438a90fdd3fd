/**
 * The device token operations (getDeviceTokens, addDeviceToken, deleteDeviceToken): a signed-in person's only, as the
 * console's Devices page calls them; the token made reports positions at its OsmAnd URL (docs/devices.md).
 */
import { describe, expect, inject, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

describe('addDeviceToken', () => {
  it("answers a token once with the OsmAnd URL naming the vehicle's IMEI, where a phone's report is taken", async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const vehicle = await givenVehicle(person);
    // Act
    const res = await callOperation('addDeviceToken', { vehicle_uid: vehicle.vehicleUid }, bearer(person.token));
    // Assess
    expect(res).toBeSuccess();
    const { token, osmand_url, device_token_uid } = res.body;
    expect(osmand_url).toBe(`${apiUrl}/devices/osmand/${token}?id=${vehicle.imei}`);
    const report = await fetch(`${osmand_url}&lat=-26.2041&lon=28.0473&timestamp=${Math.floor(Date.now() / 1000)}`, { method: 'POST' });
    expect(report.status).toBe(200);
    const listed = await callOperation('getDeviceTokens', {}, bearer(person.token));
    expect(listed.body.device_tokens).toEqual([
      { device_token_uid, vehicle_uid: vehicle.vehicleUid, prefix: token.slice(0, 8), created_datetime: expect.any(String) },
    ]);
  });

  it("answers not found for another user's vehicle and makes no token", async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const theirs = await givenVehicle(await givenUser());
    // Act
    const res = await callOperation('addDeviceToken', { vehicle_uid: theirs.vehicleUid }, bearer(person.token));
    // Assess
    expect(res).toBeError(404, 'vehicle not found or not linked to this api key');
    expect((await callOperation('getDeviceTokens', {}, bearer(person.token))).body.device_tokens).toEqual([]);
  });

  it('refuses a missing vehicle_uid', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    // Act
    const res = await callOperation('addDeviceToken', {}, bearer(person.token));
    // Assess
    expect(res.status).toBe(400);
    expect(res.body.error_msg).toMatch(/^vehicle_uid/);
  });
});
