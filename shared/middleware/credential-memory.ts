import { expiringCache } from '../expiring-cache.ts';

/** The longest a found credential is served from memory: a lock or a revocation bites within a minute. */
export const MAX_CREDENTIAL_CACHE_MS = 60_000;

/**
 * How long a key or device token found unknown is answered 401 without a lookup: guesses cost no table read, and a
 * credential created meanwhile (never a guessed one: they are random) works this much later at worst.
 */
export const UNKNOWN_CREDENTIAL_MEMORY_MS = 10_000;

export interface CredentialMemoryOptions {
  /** how long a found credential may be served from memory; capped at MAX_CREDENTIAL_CACHE_MS */
  cacheTtlMs?: number;
  now?: () => number;
}

/** How long a found credential is kept: the time asked for, at most MAX_CREDENTIAL_CACHE_MS. */
export const credentialCacheMs = ({ cacheTtlMs = MAX_CREDENTIAL_CACHE_MS }: CredentialMemoryOptions): number =>
  Math.min(cacheTtlMs, MAX_CREDENTIAL_CACHE_MS);

/**
 * A credential's lookup by its hash behind a container's memory (never per-request state) of what was found and what
 * was not: the api key's and the device token's checks alike.
 */
export function credentialMemory<R>(
  find: (hash: string) => Promise<R | undefined>,
  options: CredentialMemoryOptions,
): (hash: string) => Promise<R | undefined> {
  const now = options.now ?? Date.now;
  const found = expiringCache<R>(credentialCacheMs(options), now);
  const unknown = expiringCache<true>(UNKNOWN_CREDENTIAL_MEMORY_MS, now);
  return async (hash) => {
    const cached = found.get(hash);
    if (cached !== undefined) return cached;
    if (unknown.get(hash)) return undefined;
    const record = await find(hash);
    if (record !== undefined) found.set(hash, record);
    else unknown.set(hash, true);
    return record;
  };
}
