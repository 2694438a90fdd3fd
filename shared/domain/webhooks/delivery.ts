/**
 * A delivery attempt as the delivery log keeps it (getWebhookDeliveries): one record per POST to an endpoint, whatever
 * came of it, kept 30 days.
 */

/** Attempts are kept this long after they were made. */
export const DELIVERY_RETENTION_S = 30 * 24 * 3600;

/**
 * Where the event's delivery stands after this attempt: `delivered` (a 2xx), `retrying` (another attempt at
 * nextAttemptAt), or `failed` (no attempt follows: the schedule ran out, the endpoint answered 410 or was disabled).
 */
export const DELIVERY_STATES = ['delivered', 'retrying', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliveryAttempt {
  webhookUid: number;
  eventId: string;
  eventType: string;
  /** 1 for the first POST of this event to this endpoint (a redelivery starts again at 1) */
  attempt: number;
  /** ISO instant the POST started */
  attemptedAt: string;
  /** the endpoint's status, or null when there was none (then `error` says why) */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  state: DeliveryState;
  /** ISO instant of the next attempt while `retrying`, else null */
  nextAttemptAt: string | null;
}
