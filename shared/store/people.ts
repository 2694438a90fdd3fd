/**
 * People who sign in (docs/console.md): a person item maps an issuer's subject to the user whose data they see, and
 * carries the user's offset as a key item does, so a bearer token's lookup is one GetItem as a key's is. Under npm
 * start, the local provider's sign-ins live here too, each with its password's scrypt hash.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, SignedInAs } from '../domain/user.ts';
import { Conflict } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { isConditionFailed, transactWrite } from './requests.ts';
import { findUser } from './users.ts';

export interface LocalLogin {
  email: string;
  subject: string;
  passwordHash: string;
}

export const PERSON_EXISTS = 'a person with this e-mail address already exists';

/** The user the issuer's subject signs in as, shaped as a key's record (a person is never locked out this way). */
export async function findPerson(issuer: string, subject: string): Promise<(ApiKeyRecord & { person: SignedInAs }) | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.person(issuer, subject) }));
  if (!Item) return undefined;
  return {
    user: { userUid: Number(Item.user_uid), gmtOffsetMinutes: Number(Item.gmt_offset_minutes ?? 0) },
    locked: false,
    person: { email: String(Item.email) },
  };
}

export async function findLocalLogin(email: string): Promise<LocalLogin | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.login(email) }));
  return Item ? { email: String(Item.email), subject: String(Item.subject), passwordHash: String(Item.password_hash) } : undefined;
}

export interface NewPerson {
  userUid: number;
  email: string;
  issuer: string;
  subject: string;
  /** only for the local provider: its sign-in, claimed by the e-mail address in the same transaction */
  passwordHash?: string;
}

/** Links a person to a user; with a password hash, also the local sign-in, refused when the address has one. */
export async function createPerson({ userUid, email, issuer, subject, passwordHash }: NewPerson): Promise<void> {
  const user = await findUser(userUid);
  if (!user) throw new Error(`user ${userUid} not found`);
  const createdAt = new Date().toISOString();
  const login = passwordHash
    ? [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.login(email), email: email.toLowerCase(), subject, password_hash: passwordHash, created_at: createdAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]
    : [];
  try {
    await transactWrite([
      ...login,
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.person(issuer, subject),
            user_uid: userUid,
            gmt_offset_minutes: user.gmtOffsetMinutes,
            email: email.toLowerCase(),
            created_at: createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (isConditionFailed(error)) throw new Conflict(PERSON_EXISTS);
    throw error;
  }
}
