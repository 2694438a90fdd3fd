import { hashApiKey } from '../domain/api-key.ts';
import type { Allowance, BucketPolicy } from '../domain/token-bucket.ts';
import { Throttled } from '../errors.ts';
import type { ExpiringCache } from '../expiring-cache.ts';
import { presentedKey } from './api-key-auth.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

export interface RateLimitOptions {
  /** takes one request from the key's bucket */
  takeToken: (keyHash: string, policy: BucketPolicy) => Promise<Allowance>;
  /** the bucket; undefined turns the limit off */
  policy: () => BucketPolicy | undefined;
  /** keys apiKeyAuth found unknown a moment ago: they get no bucket (a guess costs no write) */
  unknownKeys?: ExpiringCache<true>;
}

type Taken = { allowance: Allowance } | { error: unknown };

/** What rateLimit's `take` phase puts in request.internal for its `enforce` and `headers` phases. */
export type RateLimitState = { rateLimitTaken?: Promise<Taken> };

/** The IETF draft's policy name (draft-ietf-httpapi-ratelimit-headers): the service has one policy, per api key. */
const POLICY_NAME = '"default"';
/** AWS throttling (of the bucket's item or of the operation) says nothing of when: one second, as API Gateway's own 429. */
const AWS_THROTTLED_RETRY_S = 1;

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/**
 * Per-api-key throttling shared by every Lambda container: a token bucket per key in the table (store/rate-limits.ts).
 * Three phases: `take` starts the bucket's write before the key lookup and `enforce` awaits it after, so the limit
 * costs no sequential round trip; over the limit is a 429 in the envelope. `headers` sits outside the envelope and the
 * error mapper and tells every answer, success or error, what the key has left (`RateLimit-Policy`, `RateLimit`), and
 * every 429 when to come back (`Retry-After`). A failed write fails closed: the error mapper answers it (a throttled
 * bucket is a key flooding its own item, 429; DynamoDB unreachable, 503), as the operation would a moment later.
 */
export const rateLimit = ({ takeToken, policy, unknownKeys }: RateLimitOptions): Record<'take' | 'enforce' | 'headers', HttpMiddleware> => {
  const rateLimitTakeBefore = (request: HttpRequest): void => {
    const apiKey = presentedKey(request);
    const bucket = policy();
    if (!apiKey || !bucket) return;
    const keyHash = hashApiKey(apiKey);
    if (unknownKeys?.get(keyHash)) return;
    request.internal.rateLimitTaken = takeToken(keyHash, bucket).then(
      (allowance) => ({ allowance }),
      // kept, not thrown: a lookup that fails first must not leave an unhandled rejection behind
      (error: unknown) => ({ error }),
    );
  };

  const rateLimitEnforceBefore = async (request: HttpRequest): Promise<void> => {
    const taken = await request.internal.rateLimitTaken;
    if (!taken) return;
    if ('error' in taken) throw taken.error;
    if (!taken.allowance.allowed) throw new Throttled('too many requests for this api key, retry later');
  };

  const rateLimitHeadersAfter = async (request: HttpRequest): Promise<void> => {
    const { response } = request;
    if (!response) return;
    const bucket = policy();
    // awaited here too: an answer decided before `enforce` (401, 403) still tells what the key has left
    const taken = await request.internal.rateLimitTaken;
    const allowance = taken && 'allowance' in taken ? taken.allowance : undefined;
    const headers: Record<string, string> = {};
    if (bucket) headers['RateLimit-Policy'] = `${POLICY_NAME};q=${bucket.burst};w=${seconds((bucket.burst * 1000) / bucket.perSecond)}`;
    if (allowance) headers.RateLimit = `${POLICY_NAME};r=${allowance.remaining};t=${seconds(allowance.fullInMs)}`;
    if (response.statusCode === 429) {
      headers['Retry-After'] = String(allowance && !allowance.allowed ? Math.max(1, seconds(allowance.retryInMs)) : AWS_THROTTLED_RETRY_S);
    }
    request.response = { ...response, headers: { ...response.headers, ...headers } };
  };

  return {
    take: { name: 'rateLimitTake', before: rateLimitTakeBefore },
    enforce: { name: 'rateLimitEnforce', before: rateLimitEnforceBefore },
    headers: { name: 'rateLimitHeaders', after: rateLimitHeadersAfter, onError: rateLimitHeadersAfter },
  };
};
