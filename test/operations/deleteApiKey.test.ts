/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { callOperation } from '../support/api.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

const NOT_LINKED = 'api key not found or not linked to this api key';

describe('deleteApiKey', () => {
  it('deletes the key: refused as unknown after, gone from the list', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const doomed = await issueApiKey(person.userUid);
    // Act
    const res = await callOperation('deleteApiKey', { api_key_uid: doomed.apiKeyUid }, bearer(person.token));
    // Assess
    expect(res).toBeSuccess();
    expect(await callOperation('getVehicles', { api_key: doomed.apiKey })).toBeError(401, 'unknown api key');
    const listed = await callOperation('getApiKeys', {}, bearer(person.token));
    expect(listed.body.api_keys.map((key) => key.api_key_uid)).not.toContain(doomed.apiKeyUid);
  });

  it('lets exactly one of several simultaneous deletes succeed', async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const doomed = await issueApiKey(person.userUid);
    // Act
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => callOperation('deleteApiKey', { api_key_uid: doomed.apiKeyUid }, bearer(person.token))),
    );
    // Assess
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((answer) => answer.status !== 200)) expect(res).toBeError(404, NOT_LINKED);
  });
});
