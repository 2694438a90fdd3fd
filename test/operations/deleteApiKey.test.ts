/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { callOperation } from '../support/api.ts';
import { givenUser, type TestUser } from '../support/builders.ts';
import { bearer, givenSignedInPerson } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

/** A user, signed in: their api key (as givenUser makes it) and their person's token. */
async function givenPerson(): Promise<TestUser & { token: string }> {
  const user = await givenUser({ gmtOffsetMinutes: 120 });
  return { ...user, token: (await givenSignedInPerson(apiUrl, user)).accessToken };
}

const NOT_LINKED = 'api key not found or not linked to this api key';
const _KEY_OPERATIONS = ['lockApiKey', 'unlockApiKey', 'deleteApiKey'] as const;

describe('deleteApiKey', () => {
  it('deletes the key: refused as unknown after, gone from the list', async () => {
    // Prepare
    const person = await givenPerson();
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
    const person = await givenPerson();
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
