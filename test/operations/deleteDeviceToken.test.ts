/**
 * The device token operations (getDeviceTokens, addDeviceToken, deleteDeviceToken): a signed-in person's only, as the
 * console's Devices page calls them; the token made reports positions at its OsmAnd URL (docs/devices.md).
 */
import { describe, expect, inject, it } from 'vitest';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { callOperation } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

const NOT_LINKED = 'device token not found or not linked to this api key';

describe('deleteDeviceToken', () => {
  it('revokes the token: its reports are refused, it leaves the list, a second delete finds nothing', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const vehicle = await givenVehicle(person);
    const added = (await callOperation('addDeviceToken', { vehicle_uid: vehicle.vehicleUid }, bearer(person.token))).body;
    // Act
    const res = await callOperation('deleteDeviceToken', { device_token_uid: added.device_token_uid }, bearer(person.token));
    const again = await callOperation('deleteDeviceToken', { device_token_uid: added.device_token_uid }, bearer(person.token));
    // Assess
    expect(res.body).toMatchObject({ result: 'success', device_token_uid: added.device_token_uid });
    expect(again).toBeError(404, NOT_LINKED);
    expect((await fetch(`${added.osmand_url}&lat=-26.2&lon=28.0`, { method: 'POST' })).status).toBe(401);
    expect((await callOperation('getDeviceTokens', {}, bearer(person.token))).body.device_tokens).toEqual([]);
  });

  it("answers not found for another user's token and leaves it", async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const other = await givenUser();
    const theirs = await createDeviceToken(other.userUid);
    // Act
    const res = await callOperation('deleteDeviceToken', { device_token_uid: theirs.tokenId }, bearer(person.token));
    // Assess
    expect(res).toBeError(404, NOT_LINKED);
  });

  it('refuses a device_token_uid that is no token id', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    // Act
    const answers = await Promise.all(
      [{}, { device_token_uid: 'XYZ' }].map((params) => callOperation('deleteDeviceToken', params, bearer(person.token))),
    );
    // Assess
    expect(answers.map((res) => [res.status, res.body.error_msg])).toEqual([
      [400, 'device_token_uid is required'],
      [400, 'device_token_uid must be 12 hexadecimal digits'],
    ]);
  });
});
