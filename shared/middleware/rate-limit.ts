import type { Allowance, BucketPolicy } from '../domain/token-bucket.ts';
import { Throttled } from '../errors.ts';
import type { HttpMiddleware, HttpRequest, RateLimitState } from './types.ts';

export interface RateLimitOptions {
  /** takes one request from the key's bucket */
  takeToken: (keyHash: string, policy: BucketPolicy) => Promise<Allowance>;
  /** the bucket; undefined turns the limit off */
  policy: () => BucketPolicy | undefined;
}

/** The IETF draft's policy name (draft-ietf-httpapi-ratelimit-headers): the service has one policy, per api key. */
const POLICY_NAME = '"default"';
/** AWS throttling (of the bucket's item or of the operation) says nothing of when: one second, as API Gateway's own 429. */
const AWS_THROTTLED_RETRY_S = 1;

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/** What the request must answer instead of its own answer: the bucket's refusal or its store's failure. */
async function refusalOf({ rateLimitTaken }: RateLimitState): Promise<unknown> {
  const taken = await rateLimitTaken;
  if (!taken) return undefined;
  if ('error' in taken) return taken.error;
  return taken.allowance.allowed ? undefined : new Throttled('too many requests for this api key, retry later');
}

/**
 * Waits for the request's bucket (at once when none was taken, or it was spent first) and throws its refusal, or its
 * store's failure: what a read that runs alongside its bucket awaits before it calls a service billed per call.
 */
export async function bucketVerdict(state: RateLimitState): Promise<void> {
  const refusal = await refusalOf(state);
  if (refusal) throw refusal;
}

/**
 * Per-api-key throttling shared by every Lambda container: a token bucket per key in the table (store/rate-limits.ts),
 * taken right after the credentials step for a key found and unlocked (a guessed key never gets a bucket item), in one
 * of two ways. `first`: the request waits for its bucket before anything else runs (a write: a refused request changes
 * nothing). `alongside`: the bucket's write runs while the validation and the handler do, and the request is answered
 * as if it had waited (a read: a refused request answers 429 and nothing it read; a read about to call a service
 * billed per call waits for the verdict there, with `bucketVerdict`). Over the limit is a 429 in the envelope. A failed
 * write fails closed either way: the error mapper answers it (a throttled bucket is a key flooding its own item, 429;
 * DynamoDB unreachable, 503), as the operation would a moment later.
 */
export const rateLimit = ({ takeToken, policy }: RateLimitOptions): Record<'first' | 'alongside', HttpMiddleware> => {
  const take = (request: HttpRequest): void => {
    const { credentialHash } = request.internal;
    const bucket = policy();
    if (!credentialHash || !bucket) return;
    request.internal.rateLimitTaken = takeToken(credentialHash, bucket).then(
      (allowance) => ({ allowance }),
      // kept, not thrown: a read that fails first must not leave an unhandled rejection behind
      (error: unknown) => ({ error }),
    );
  };

  const spendBefore = async (request: HttpRequest): Promise<void> => {
    take(request);
    await bucketVerdict(request.internal);
  };

  // After the handler: a refusal throws, so the answer is thrown away before the envelope carries it out.
  const settleAfter = (request: HttpRequest): Promise<void> => bucketVerdict(request.internal);

  // A request that failed meanwhile (its input, its read) answers the refusal, as it would have had it waited.
  const settleOnError = async (request: HttpRequest): Promise<void> => {
    const refusal = await refusalOf(request.internal);
    if (refusal) request.error = refusal as Error;
  };

  return {
    first: { name: 'rateLimitFirst', before: spendBefore },
    alongside: { name: 'rateLimitAlongside', before: take, after: settleAfter, onError: settleOnError },
  };
};

/**
 * Sits outside the envelope and the error mapper and tells every answer, success or error, what the key has left
 * (`RateLimit-Policy` when there is a policy, `RateLimit` when a bucket was taken), and every 429 when to come back
 * (`Retry-After`), whoever answered it: the bucket, or AWS throttling the bucket or the operation.
 */
export const rateLimitHeaders = (policy: () => BucketPolicy | undefined): HttpMiddleware => {
  const rateLimitHeadersAfter = async (request: HttpRequest): Promise<void> => {
    const { response } = request;
    if (!response) return;
    const bucket = policy();
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
  return { name: 'rateLimitHeaders', after: rateLimitHeadersAfter, onError: rateLimitHeadersAfter };
};
