/**
 * A delivery attempt as the delivery log keeps it (getWebhookDeliveries): one record per POST to a webhook, whatever
 * came of it, kept 30 days.
 */

import { randomBytes } from 'node:crypto';

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
  /** 1 for the first POST of this event to this webhook (a redelivery starts again at 1) */
  attempt: number;
  /** ISO instant the POST started */
  attemptedAt: string;
  /** the receiver's status, or null when there was none (then `error` says why) */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  state: DeliveryState;
  /** ISO instant of the next attempt while `retrying`, else null */
  nextAttemptAt: string | null;
}

/** What a delivery carries: an event object (shared/domain/events/event.ts), or the test event of testWebhook. */
export interface DeliverableEvent {
  event_id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The type of the event testWebhook sends: it is no fact of a vehicle, so no subscription asks for it and no log keeps it. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/**
 * testWebhook waits this long for the receiver (deliveries wait 10 s): its answer must come within the function's own
 * 10 s, after the webhook's read and before the attempt's record.
 */
export const TEST_DELIVERY_TIMEOUT_MS = 5_000;

/** A test event for a webhook: an event_id of the same form as a real event's, drawn fresh so each test is its own delivery. */
export const webhookTestEvent = (webhookUid: number, now: Date): DeliverableEvent => ({
  event_id: `evt_${randomBytes(16).toString('hex')}`,
  type: WEBHOOK_TEST_TYPE,
  timestamp: now.toISOString(),
  data: { webhook_uid: webhookUid, message: 'A test event sent by testWebhook: no vehicle did anything.' },
});

/** Where a delivery stands after an attempt that answered `statusCode` (or none) and will not be retried. */
export const finalState = (statusCode: number | null): DeliveryState =>
  statusCode !== null && statusCode >= 200 && statusCode < 300 ? 'delivered' : 'failed';

/** What redeliverEvents refuses (409): a webhook that takes nothing now, an event it never took. */
export const WEBHOOK_DISABLED = 'webhook is disabled: enable it with editWebhook (enabled=1) first';
export const EVENT_NOT_TAKEN = 'the webhook does not take this event (its event_types or vehicle_uids leave it out)';
/** The most events one redeliverEvents call queues; next_since says where the next call starts. */
export const MAX_REDELIVERED = 1000;
