/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { callOperation } from '../support/api.ts';
import { bearer, givenSignedInUser } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

describe('getApiKeys', () => {
  it("lists the user's keys oldest first, times in the user's offset, the last use recorded, never another user's", async () => {
    // Prepare
    const person = await givenSignedInUser(apiUrl);
    const other = await givenSignedInUser(apiUrl);
    const second = await issueApiKey(person.userUid, 'second');
    await callOperation('getVehicles', { api_key: person.key });
    // Act
    const res = await callOperation('getApiKeys', {}, bearer(person.token));
    // Assess
    expect(res).toBeSuccess();
    const [first, then] = res.body.api_keys;
    expect(res.body.api_keys).toHaveLength(2);
    expect(first).toMatchObject({ prefix: person.key.slice(0, 8), description: null, locked: 0 });
    expect(then).toMatchObject({ api_key_uid: second.apiKeyUid, description: 'second', last_used_datetime: null });
    expect(first?.last_used_datetime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(res.body.api_keys.map((key) => key.prefix)).not.toContain(other.key.slice(0, 8));
  });
});
