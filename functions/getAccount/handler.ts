import { operation } from '../../shared/operation.ts';
import { findUser } from '../../shared/store/users.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, person }) => {
  // The chain admits only a bearer token here (personOnly), and its user exists: a person is linked to one.
  const profile = await findUser(user.userUid);
  if (!person || !profile) throw new Error(`getAccount without a signed-in person of a known user (${user.userUid})`);
  return { email: person.email, user_name: profile.name, gmt_offset_minutes: user.gmtOffsetMinutes };
});
