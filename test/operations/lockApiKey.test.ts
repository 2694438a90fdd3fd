/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

describe('lockApiKey and unlockApiKey', () => {
  it('lock a key, which is then refused and listed locked, and unlock it again', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const api_key_uid = (await callOperation('getApiKeys', {}, bearer(person.token))).body.api_keys[0]?.api_key_uid;
    // Act
    const locked = await callOperation('lockApiKey', { api_key_uid }, bearer(person.token));
    const refused = await callOperation('getVehicles', { api_key: person.key });
    const listed = await callOperation('getApiKeys', {}, bearer(person.token));
    const unlocked = await callOperation('unlockApiKey', { api_key_uid }, bearer(person.token));
    // Assess
    expect(locked.body).toMatchObject({ result: 'success', api_key_uid });
    expect(refused).toBeError(403, 'api key locked');
    expect(listed.body.api_keys[0]?.locked).toBe(1);
    expect(unlocked).toBeSuccess();
    expect(await callOperation('getVehicles', { api_key: person.key })).toBeSuccess();
  });
});
