import { hashApiKey } from '../domain/api-key.ts';
import { Throttled } from '../errors.ts';
import { presentedKey } from './api-key-auth.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

export interface RateLimitOptions {
  /** counts one request in the key's current window; answers the window's count */
  countRequest: (keyHash: string, windowS: number) => Promise<number>;
  /** requests per window; 0 turns the limit off */
  limit: () => number;
  windowS: () => number;
}

type Counted = { count: number } | { error: unknown };

/** What rateLimit's `count` phase puts in request.internal for its `enforce` phase. */
export type RateLimitState = { rateCount?: Promise<Counted> };

/**
 * Per-api-key throttling shared by every Lambda container: one atomic counter per key and window in the table.
 * Two phases around apiKeyAuth: `count` starts the counter's write before the key lookup and `enforce` awaits it
 * after, so the limit costs no sequential round trip. Over the limit: 429 in the envelope.
 */
export const rateLimit = ({ countRequest, limit, windowS }: RateLimitOptions): { count: HttpMiddleware; enforce: HttpMiddleware } => {
  const rateLimitCountBefore = (request: HttpRequest): void => {
    const apiKey = presentedKey(request);
    if (!apiKey || limit() === 0) return;
    request.internal.rateCount = countRequest(hashApiKey(apiKey), windowS()).then(
      (count) => ({ count }),
      // kept, not thrown: a lookup that fails first must not leave an unhandled rejection behind
      (error: unknown) => ({ error }),
    );
  };

  const rateLimitEnforceBefore = async (request: HttpRequest): Promise<void> => {
    const counted = await request.internal.rateCount;
    if (!counted) return;
    if ('error' in counted) throw counted.error;
    if (counted.count > limit()) throw new Throttled('too many requests for this api key, retry later');
  };
  return {
    count: { name: 'rateLimitCount', before: rateLimitCountBefore },
    enforce: { name: 'rateLimitEnforce', before: rateLimitEnforceBefore },
  };
};
