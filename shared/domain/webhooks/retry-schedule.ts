/**
 * When a delivery that did not succeed is tried again (docs/webhooks.md, "Retries"): the schedule's waits with
 * jitter, or what the receiver asked for in Retry-After; and when a webhook that keeps failing is disabled.
 */

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over about three and a half days. */
export const DEFAULT_RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;

/** A webhook with no successful delivery for this long is disabled. */
export const FAILING_WEBHOOK_DISABLED_AFTER_MS = 5 * 24 * 3600_000;
export const FAILING_WEBHOOK_REASON = 'no successful delivery for 5 days';
export const GONE_RECEIVER_REASON = 'the endpoint answered 410 Gone';

/** Jitter spreads the retries of one outage's many deliveries: each wait is drawn from ±10 % of the schedule's. */
const JITTER = 0.1;

/** A Retry-After longer than the schedule's longest wait is cut to it: a receiver cannot park a delivery for ever. */
const RETRY_AFTER_MAX_S = 86_400;

/** Comma-separated seconds (WEBHOOK_RETRY_SCHEDULE_S); undefined when any entry is not a positive number. */
export function parseRetrySchedule(text: string): number[] | undefined {
  const waits = text.split(',').map((entry) => Number(entry.trim()));
  return waits.length > 0 && waits.every((wait) => Number.isFinite(wait) && wait > 0) ? waits : undefined;
}

/**
 * Seconds until the next attempt after attempt `attempt` (1-based) failed, or undefined when it was the last. A
 * Retry-After (429 and 503 only: the caller passes it) replaces the schedule's wait for this attempt.
 */
export function retryDelaySeconds(
  attempt: number,
  schedule: readonly number[],
  retryAfterS?: number,
  random = Math.random,
): number | undefined {
  const wait = schedule[attempt - 1];
  if (wait === undefined) return undefined;
  if (retryAfterS !== undefined) return Math.min(Math.max(retryAfterS, 1), RETRY_AFTER_MAX_S);
  return wait * (1 - JITTER + 2 * JITTER * random());
}

/** True when a webhook failing since `failingSince` (ISO) has gone without success long enough to be disabled. */
export const failedForTooLong = (failingSince: string | null, now: Date): boolean =>
  failingSince !== null && now.getTime() - Date.parse(failingSince) >= FAILING_WEBHOOK_DISABLED_AFTER_MS;
