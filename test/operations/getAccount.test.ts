/**
 * getAccount: the signed-in person's account (the console reads the user's GMT offset from it), a person's only, called
 * with the access token the local provider gives (test/support/sign-in.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { PERSON_ONLY } from '../../shared/middleware/api-key-auth.ts';
import { findUser } from '../../shared/store/users.ts';
import { callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { bearer, givenSignedInPerson } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

/** A user with the given offset, and a person of theirs signed in. */
async function givenPerson(gmtOffsetMinutes: number) {
  const user = await givenUser({ gmtOffsetMinutes });
  const person = await givenSignedInPerson(apiUrl, user);
  return { ...user, ...person, name: (await findUser(user.userUid))?.name };
}

describe('getAccount', () => {
  it("answers the signed-in person's address, their user and that user's GMT offset", async () => {
    // Prepare
    const person = await givenPerson(-210);

    // Act
    const res = await callOperation('getAccount', {}, bearer(person.accessToken));

    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ email: person.email, user_name: person.name, gmt_offset_minutes: -210 });
  });

  it("answers each person their own account, never another user's", async () => {
    // Prepare
    const first = await givenPerson(120);
    const second = await givenPerson(330);

    // Act
    const [firstAccount, secondAccount] = await Promise.all(
      [first, second].map((person) => callOperation('getAccount', {}, bearer(person.accessToken))),
    );

    // Assess
    expect(firstAccount?.body).toMatchObject({ email: first.email, user_name: first.name, gmt_offset_minutes: 120 });
    expect(secondAccount?.body).toMatchObject({ email: second.email, user_name: second.name, gmt_offset_minutes: 330 });
  });

  it("is refused to an api key, even the same user's: an account is a person's", async () => {
    // Prepare
    const person = await givenPerson(120);

    // Act
    const res = await callOperation('getAccount', { api_key: person.key });

    // Assess
    expect(res).toBeError(403, PERSON_ONLY);
  });

  it('asks for a sign-in when no credential is presented', async () => {
    // Act
    const res = await callOperation('getAccount', {});

    // Assess
    expect(res).toBeError(401, 'sign-in required: an access token is missing');
  });
});
