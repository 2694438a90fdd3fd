/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

const NOT_LINKED = 'api key not found or not linked to this api key';
const KEY_OPERATIONS = ['lockApiKey', 'unlockApiKey', 'deleteApiKey'] as const;

describe.each(KEY_OPERATIONS)('%s', (name) => {
  it("answers not found to another user's key and leaves it working", async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const other = await givenUser();
    const theirs = await issueApiKey(other.userUid);
    // Act
    const res = await callOperation(name, { api_key_uid: theirs.apiKeyUid }, bearer(person.token));
    // Assess
    expect(res).toBeError(404, NOT_LINKED);
    expect(await callOperation('getVehicles', { api_key: theirs.apiKey })).toBeSuccess();
  });

  it('refuses a missing or malformed api_key_uid', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    // Act
    const answers = await Promise.all([{}, { api_key_uid: 'one' }].map((params) => callOperation(name, params, bearer(person.token))));
    // Assess
    for (const res of answers) expect(res).toBeError(400, 'api_key_uid is required and must be an integer');
  });
});
