/**
 * The per-api-key token bucket as GCRA (generic cell rate algorithm): the whole bucket is one number, the
 * theoretical arrival time (TAT) at which it would be full again. A request at `now` may pass while the TAT is
 * at most `burst - 1` intervals ahead of now, and moves it one interval further (from now, when it lay in the past).
 */
export interface BucketPolicy {
  /** sustained requests a second: the rate the bucket refills at */
  perSecond: number;
  /** requests that may come at once: the bucket's size */
  burst: number;
}

/** What one request found: whether it passed, and what the client has left (the RateLimit and Retry-After headers). */
export interface Allowance {
  allowed: boolean;
  /** requests that may still come at once */
  remaining: number;
  /** ms until the bucket is full again */
  fullInMs: number;
  /** ms until the next request may pass; 0 while requests are left */
  retryInMs: number;
}

/** A TAT of some 1.8e12 ms keeps 4 decimals: rounding must not take a whole request off (298.99998 remaining is 299). */
const EPSILON = 1e-3;

export const intervalMs = (policy: BucketPolicy): number => 1000 / policy.perSecond;

/** The latest stored TAT that still lets a request at `nowMs` pass. */
export const latestPassingTat = (policy: BucketPolicy, nowMs: number): number => nowMs + (policy.burst - 1) * intervalMs(policy);

/** The TAT a request at `nowMs` leaves behind when it passes. */
export const tatAfter = (policy: BucketPolicy, nowMs: number, storedTat: number | undefined): number =>
  Math.max(storedTat ?? nowMs, nowMs) + intervalMs(policy);

/** The allowance after a request at `nowMs` passed and left `tat` behind. */
export function passed(policy: BucketPolicy, nowMs: number, tat: number): Allowance {
  const ahead = tat - nowMs;
  const remaining = Math.floor(policy.burst - ahead / intervalMs(policy) + EPSILON);
  return {
    allowed: true,
    remaining: Math.max(0, remaining),
    fullInMs: Math.max(0, ahead),
    retryInMs: remaining > 0 ? 0 : retryIn(policy, nowMs, tat),
  };
}

/** The allowance of a request at `nowMs` refused because the stored TAT is past the burst. */
export const refused = (policy: BucketPolicy, nowMs: number, storedTat: number): Allowance => ({
  allowed: false,
  remaining: 0,
  fullInMs: Math.max(0, storedTat - nowMs),
  retryInMs: retryIn(policy, nowMs, storedTat),
});

/**
 * Requests a function instance may let pass without a write while it last saw the bucket (nearly) full: 1 % of the
 * burst, at least one. What the limit can miss is bounded by it (store/rate-limits.ts, takeFromQuietBucket).
 */
export const deferrableRequests = (policy: BucketPolicy): number => Math.max(1, Math.floor(policy.burst / 100));

/** How long a request let pass without a write stays owed: the time an empty bucket takes to fill again. */
export const owedForMs = (policy: BucketPolicy): number => policy.burst * intervalMs(policy);

const retryIn = (policy: BucketPolicy, nowMs: number, tat: number): number => Math.max(0, tat - latestPassingTat(policy, nowMs));
