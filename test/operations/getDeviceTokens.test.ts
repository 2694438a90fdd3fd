/**
 * The device token operations (getDeviceTokens, addDeviceToken, deleteDeviceToken): a signed-in person's only, as the
 * console's Devices page calls them; the token made reports positions at its OsmAnd URL (docs/devices.md).
 */
import { describe, expect, it } from 'vitest';
import { PERSON_ONLY } from '../../shared/middleware/api-key-auth.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

describe.each(['getDeviceTokens', 'addDeviceToken', 'deleteDeviceToken'] as const)('%s by an api key', (name) => {
  it('is refused: only a signed-in person may set up devices', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation(name, { api_key: user.key, vehicle_uid: 1, device_token_uid: '000000000000' });
    // Assess
    expect(res).toBeError(403, PERSON_ONLY);
  });
});
