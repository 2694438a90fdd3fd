import { hashApiKey } from '../domain/api-key.ts';
import type { ApiKeyRecord, AuthenticatedUser } from '../domain/user.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { type ExpiringCache, expiringCache } from '../expiring-cache.ts';
import { type HttpMiddleware, type HttpRequest, headerValue } from './types.ts';

export type FindApiKey = (keyHash: string) => Promise<ApiKeyRecord | undefined>;

export interface ApiKeyAuthOptions {
  findApiKey: FindApiKey;
  /** How long a found key may be served from memory; at most 60 s so a lock bites within a minute. */
  cacheTtlMs?: number;
  /** keys found unknown, shared with the rate limit's `take`, so a stream of guesses costs no read or write each */
  unknownKeys?: ExpiringCache<true>;
  now?: () => number;
}

export const MAX_KEY_CACHE_MS = 60_000;

/**
 * How long a key or device token found unknown is answered 401 without a lookup: guesses cost no table read, and a
 * credential created meanwhile (never a guessed one: they are random) works this much later at worst.
 */
export const UNKNOWN_CREDENTIAL_MEMORY_MS = 10_000;

/** What apiKeyAuth puts in request.internal. */
export type ApiKeyAuthState = { user?: AuthenticatedUser };

/**
 * Finds the key in the X-Api-Key header (which wins), the body or the query string, and puts its
 * user in request.internal.user. Keys are looked up by SHA-256 hash only; the key itself is never logged.
 */
export const apiKeyAuth = ({
  findApiKey,
  cacheTtlMs = MAX_KEY_CACHE_MS,
  now = Date.now,
  unknownKeys = expiringCache<true>(UNKNOWN_CREDENTIAL_MEMORY_MS, now),
}: ApiKeyAuthOptions): HttpMiddleware => {
  // Lives as long as the Lambda container: a cache of found keys, never per-request state.
  const foundKeys = expiringCache<ApiKeyRecord>(Math.min(cacheTtlMs, MAX_KEY_CACHE_MS), now);

  const lookUp = async (keyHash: string): Promise<ApiKeyRecord | undefined> => {
    const cached = foundKeys.get(keyHash);
    if (cached) return cached;
    if (unknownKeys.get(keyHash)) return undefined;
    const record = await findApiKey(keyHash);
    if (record) foundKeys.set(keyHash, record);
    else unknownKeys.set(keyHash, true);
    return record;
  };

  const apiKeyAuthBefore = async (request: HttpRequest): Promise<void> => {
    const apiKey = presentedKey(request);
    if (!apiKey) throw new Unauthorized('api key missing');
    const record = await lookUp(hashApiKey(apiKey));
    if (!record) throw new Unauthorized('unknown api key');
    if (record.locked) throw new Forbidden('api key locked');
    request.internal.user = record.user;
  };
  return { name: 'apiKeyAuth', before: apiKeyAuthBefore };
};

/** The first non-blank key of header, body and query, in that order: a blank key in one place never hides a key in another. */
export function presentedKey(request: HttpRequest): string | undefined {
  const sources = [headerValue(request.event, 'x-api-key'), request.internal.bodyParams?.api_key, request.internal.queryParams?.api_key];
  for (const source of sources) {
    if (typeof source === 'string' && source.trim() !== '') return source.trim();
  }
  return undefined;
}

/** The user apiKeyAuth found, for the middlewares and the handler after it in the chain. */
export function authenticatedUser(request: HttpRequest): AuthenticatedUser {
  const { user } = request.internal;
  if (!user) throw new Error('no authenticated user: apiKeyAuth must run before this middleware');
  return user;
}
