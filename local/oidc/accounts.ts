/**
 * The local provider's accounts: an e-mail address and a password (its scrypt hash in the table's LOGIN item), linked
 * to a user through a person item under the provider's issuer, `http://127.0.0.1:<PORT>/oidc`.
 */
import { randomUUID } from 'node:crypto';
import { Conflict } from '../../shared/errors.ts';
import { createPerson, findLocalLogin } from '../../shared/store/people.ts';
import { hashPassword, newPassword } from './passwords.ts';
import { OIDC_PATH } from './provider.ts';

/** The issuer of npm start's provider on this port (the default host). */
export const localIssuer = (port: number | string = process.env.PORT ?? 3000): string => `http://127.0.0.1:${port}${OIDC_PATH}`;

export interface LocalAccount {
  email: string;
  password: string;
  subject: string;
}

/** A sign-in for the user, with a random password unless one is given; refused (Conflict) when the address has one. */
export async function createLocalAccount(userUid: number, email: string, issuer: string, password = newPassword()): Promise<LocalAccount> {
  const subject = randomUUID();
  await createPerson({ userUid, email, issuer, subject, passwordHash: await hashPassword(password) });
  return { email: email.toLowerCase(), password, subject };
}

/**
 * The account's person under this issuer, made when missing: its items are keyed by issuer, and npm start on another
 * port is another issuer. True when the address has a sign-in.
 */
export async function linkLocalAccount(userUid: number, email: string, issuer: string): Promise<boolean> {
  const login = await findLocalLogin(email);
  if (!login) return false;
  await createPerson({ userUid, email, issuer, subject: login.subject }).catch((error: unknown) => {
    if (!(error instanceof Conflict)) throw error;
  });
  return true;
}
