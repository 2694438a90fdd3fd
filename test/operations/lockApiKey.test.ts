/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { callOperation } from '../support/api.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { bearer, givenSignedInPerson } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

/** A user, signed in: their api key (as givenUser makes it) and their person's token. */
async function givenPerson(): Promise<TestUser & { token: string }> {
  const user = await givenUser({ gmtOffsetMinutes: 120 });
  return { ...user, token: (await givenSignedInPerson(apiUrl, user)).accessToken };
}

const _NOT_LINKED = 'api key not found or not linked to this api key';
const _KEY_OPERATIONS = ['lockApiKey', 'unlockApiKey', 'deleteApiKey'] as const;

describe('lockApiKey and unlockApiKey', () => {
  it('lock a key, which is then refused and listed locked, and unlock it again', async () => {
    // Prepare
    const person = await givenPerson();
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
