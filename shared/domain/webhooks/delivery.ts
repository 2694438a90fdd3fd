/**
 * One queued delivery: one event to one webhook, the message the router enqueues and the sender takes. It carries
 * the event itself, so a delivery needs no read of the event, and the attempt it is, so a retry is a new message and
 * the queue's receive count only counts a message's own failed receipts (docs/decisions.md, "Webhook delivery").
 */
import type { Webhook } from './webhook.ts';

export interface QueuedDelivery {
  user_uid: number;
  webhook_uid: number;
  event_id: string;
  event_type: string;
  /** the event object as JSON text, exactly the body POSTed */
  event: string;
  /** 1-based: the attempt this message makes */
  attempt: number;
  /** ISO instant before which it must not be attempted (a wait longer than the queue's delay allows) */
  not_before?: string;
  /** ISO instant it is due: its lag (the senders falling behind) is measured from here */
  due_at?: string;
  /** times it went round unattempted (its webhook at its cap or stalled, its batch out of time), so the next wait grows */
  deferrals?: number;
  /** queued by redeliverEvents: it waits with the retries, never in front of anyone's first attempts */
  redelivery?: true;
}

/** What the router needs of an event item to route it. */
export interface RoutableEvent {
  event_id: string;
  type: string;
  vehicle_uid: number;
  event: string;
}

/** A webhook takes an event when enabled and its type and vehicle filters (empty: all) let it through. */
export const webhookTakes = (webhook: Pick<Webhook, 'enabled' | 'eventTypes' | 'vehicleUids'>, event: RoutableEvent): boolean =>
  webhook.enabled &&
  (webhook.eventTypes.length === 0 || webhook.eventTypes.includes(event.type)) &&
  (webhook.vehicleUids.length === 0 || webhook.vehicleUids.includes(event.vehicle_uid));

export function queuedDelivery(userUid: number, webhookUid: number, event: RoutableEvent, now: Date): QueuedDelivery {
  return {
    user_uid: userUid,
    webhook_uid: webhookUid,
    event_id: event.event_id,
    event_type: event.type,
    event: event.event,
    attempt: 1,
    due_at: now.toISOString(),
  };
}

/** The message body as it is read back; undefined when it is not one of ours (it then goes to the dead-letter queue). */
export function parseQueuedDelivery(body: string): QueuedDelivery | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<QueuedDelivery>;
    const valid =
      Number.isInteger(parsed.user_uid) &&
      Number.isInteger(parsed.webhook_uid) &&
      typeof parsed.event_id === 'string' &&
      typeof parsed.event_type === 'string' &&
      typeof parsed.event === 'string' &&
      Number.isInteger(parsed.attempt) &&
      (parsed.attempt as number) >= 1;
    return valid ? (parsed as QueuedDelivery) : undefined;
  } catch {
    return undefined;
  }
}
