import { createHash } from 'node:crypto';
import { hashApiKey, LAST_USED_RESOLUTION_MS } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/user.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { expiringCache } from '../expiring-cache.ts';
import type { SignedInPerson } from '../sign-in/access-tokens.ts';
import { logger } from '../telemetry.ts';
import { type CredentialMemoryOptions, credentialCacheMs, credentialMemory } from './credential-memory.ts';
import { type HttpMiddleware, type HttpRequest, headerValue } from './types.ts';

export type FindApiKey = (keyHash: string) => Promise<ApiKeyRecord | undefined>;
export type FindPerson = (issuer: string, subject: string) => Promise<ApiKeyRecord | undefined>;
export type VerifyAccessToken = (token: string) => Promise<SignedInPerson>;

export interface ApiKeyAuthOptions extends CredentialMemoryOptions {
  findApiKey: FindApiKey;
  findPerson: FindPerson;
  verifyAccessToken: VerifyAccessToken;
  /** records a key's use (its last_used_datetime), called when the one found was last recorded over an hour before */
  markApiKeyUsed: (keyHash: string) => Promise<void>;
  /** the operation is a signed-in person's only (managing keys and device tokens): an api key is refused */
  personOnly?: boolean;
}

export const PERSON_ONLY = 'this operation needs a signed-in person, not an api key';

/**
 * The credentials step: a signed-in person's access token (`Authorization: Bearer`, which wins) or an api key (the
 * X-Api-Key header, which wins, the body or the query string). A key is hashed once and looked up by that SHA-256; a
 * token is verified against its issuer's keys and its person looked up by issuer and subject. Neither is logged nor
 * kept. Found (and a key unlocked), the user and the credential's hash (the person's for a token: their rate bucket,
 * whichever token they hold) are left in request.internal for every later middleware.
 */
export const apiKeyAuth = ({
  findApiKey,
  findPerson,
  verifyAccessToken,
  markApiKeyUsed,
  personOnly = false,
  ...memory
}: ApiKeyAuthOptions): HttpMiddleware => {
  const lookUpKey = credentialMemory(findApiKey, memory);
  const now = memory.now ?? Date.now;
  /** when this container last recorded each key's use: a cached record still shows the older time */
  const recorded = expiringCache<true>(LAST_USED_RESOLUTION_MS, now);
  const noteUse = (keyHash: string, lastUsedAt: string | null | undefined): void => {
    if (recorded.get(keyHash) || (lastUsedAt && now() - Date.parse(lastUsedAt) < LAST_USED_RESOLUTION_MS)) return;
    recorded.set(keyHash, true);
    // Bookkeeping, never in the request's way: not awaited, and its failure only logged.
    markApiKeyUsed(keyHash).catch((error: unknown) => logger.warn('could not record the api key use', { error }));
  };
  const lookUpPerson = credentialMemory((personHash) => {
    const [issuer, subject] = JSON.parse(personHash) as [string, string];
    return findPerson(issuer, subject);
  }, memory);

  const verified = expiringCache<SignedInPerson>(credentialCacheMs(memory), now);
  /**
   * A token verified lately, by its hash (the token itself is never kept), until the sooner of its expiry and the
   * credential memory's time: the console calls with one token for its lifetime, and the token's RS256 check was
   * half of a signed-in read's own CPU.
   */
  const verifiedPerson = async (token: string): Promise<SignedInPerson> => {
    const tokenHash = createHash('sha256').update(token, 'utf8').digest('hex');
    const known = verified.get(tokenHash);
    if (known) return known;
    const person = await verifyAccessToken(token);
    verified.set(tokenHash, person, person.expiresAt);
    return person;
  };

  const signedIn = async (token: string): Promise<{ record: ApiKeyRecord | undefined; credentialHash: string }> => {
    const { issuer, subject } = await verifiedPerson(token);
    const person = JSON.stringify([issuer, subject]);
    return { record: await lookUpPerson(person), credentialHash: createHash('sha256').update(person, 'utf8').digest('hex') };
  };

  const apiKeyAuthBefore = async (request: HttpRequest): Promise<void> => {
    const token = bearerToken(request);
    if (token !== undefined) {
      const { record, credentialHash } = await signedIn(token);
      if (!record) throw new Unauthorized('this person is not linked to a user');
      request.internal.user = record.user;
      request.internal.person = record.person;
      request.internal.credentialHash = credentialHash;
      return;
    }
    const apiKey = presentedKey(request);
    if (!apiKey) throw new Unauthorized(personOnly ? 'sign-in required: an access token is missing' : 'api key missing');
    if (personOnly) throw new Forbidden(PERSON_ONLY);
    const apiKeyHash = hashApiKey(apiKey);
    const record = await lookUpKey(apiKeyHash);
    if (!record) throw new Unauthorized('unknown api key');
    if (record.locked) throw new Forbidden('api key locked');
    noteUse(apiKeyHash, record.lastUsedAt);
    request.internal.user = record.user;
    request.internal.credentialHash = apiKeyHash;
  };
  return { name: 'apiKeyAuth', before: apiKeyAuthBefore };
};

/** The token of an `Authorization: Bearer` header; a blank one is no token (401 as a blank key is). */
function bearerToken(request: HttpRequest): string | undefined {
  const authorization = headerValue(request.event, 'authorization');
  if (authorization === undefined) return undefined;
  const [, token] = /^Bearer\s+(.*)$/i.exec(authorization.trim()) ?? [];
  if (!token?.trim()) throw new Unauthorized('access token invalid');
  return token.trim();
}

/** The first non-blank key of header, body and query, in that order: a blank key in one place never hides a key in another. */
function presentedKey(request: HttpRequest): string | undefined {
  const sources = [headerValue(request.event, 'x-api-key'), request.internal.bodyParams?.api_key, request.internal.queryParams?.api_key];
  for (const source of sources) {
    if (typeof source === 'string' && source.trim() !== '') return source.trim();
  }
  return undefined;
}
