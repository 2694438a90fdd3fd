/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { PERSON_ONLY } from '../../shared/middleware/api-key-auth.ts';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

const KEY_OPERATIONS = ['lockApiKey', 'unlockApiKey', 'deleteApiKey'] as const;

describe('addApiKey', () => {
  it('answers a new key once, which then works and is listed by its prefix with its description', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    // Act
    const added = await callOperation('addApiKey', { description: 'dispatch system' }, bearer(person.token));
    // Assess
    expect(added).toBeSuccess();
    const { api_key, api_key_uid } = added.body;
    expect(api_key).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{42}$/);
    expect(await callOperation('getVehicles', { api_key })).toBeSuccess();
    const listed = await callOperation('getApiKeys', {}, bearer(person.token));
    const made = listed.body.api_keys.find((key) => key.api_key_uid === api_key_uid);
    expect(made).toMatchObject({ prefix: api_key.slice(0, 8), description: 'dispatch system', locked: 0 });
    expect(JSON.stringify(listed.body)).not.toContain(api_key);
  });

  it('refuses a description over 255 characters', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    // Act
    const res = await callOperation('addApiKey', { description: 'x'.repeat(256) }, bearer(person.token));
    // Assess
    expect(res).toBeError(400, 'description is too long (max 255 chars)');
  });
});

describe.each(['getApiKeys', 'addApiKey', ...KEY_OPERATIONS] as const)('%s by an api key', (name) => {
  it('is refused: only a signed-in person may manage keys, so a leaked key cannot make itself a successor', async () => {
    // Prepare
    const user = await givenUser();
    const { apiKeyUid } = await issueApiKey(user.userUid);
    // Act
    const res = await callOperation(name, { api_key: user.key, api_key_uid: apiKeyUid });
    // Assess
    expect(res).toBeError(403, PERSON_ONLY);
  });

  it('without any credential asks for a sign-in', async () => {
    // Act
    const res = await callOperation(name, { api_key_uid: 1 });
    // Assess
    expect(res).toBeError(401, 'sign-in required: an access token is missing');
  });
});
