/**
 * The api key operations (getApiKeys, addApiKey, lockApiKey, unlockApiKey, deleteApiKey): a signed-in person's only,
 * called with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { PERSON_ONLY } from '../../shared/middleware/api-key-auth.ts';
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
const KEY_OPERATIONS = ['lockApiKey', 'unlockApiKey', 'deleteApiKey'] as const;

describe('addApiKey', () => {
  it('answers a new key once, which then works and is listed by its prefix with its description', async () => {
    // Prepare
    const person = await givenPerson();
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
    const person = await givenPerson();
    // Act
    const res = await callOperation('addApiKey', { description: 'x'.repeat(256) }, bearer(person.token));
    // Assess
    expect(res).toBeError(400, 'description is too long (max 255 chars)');
  });
});

describe('getApiKeys', () => {
  it("lists the user's keys oldest first, times in the user's offset, the last use recorded, never another user's", async () => {
    // Prepare
    const person = await givenPerson();
    const other = await givenPerson();
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

describe.each(KEY_OPERATIONS)('%s', (name) => {
  it("answers not found to another user's key and leaves it working", async () => {
    // Prepare
    const person = await givenPerson();
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
    const person = await givenPerson();
    // Act
    const answers = await Promise.all([{}, { api_key_uid: 'one' }].map((params) => callOperation(name, params, bearer(person.token))));
    // Assess
    for (const res of answers) expect(res).toBeError(400, 'api_key_uid is required and must be an integer');
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
