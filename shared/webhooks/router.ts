/**
 * The outbox's router (docs/webhooks.md, "Delivery"): each feed item the table's stream carries becomes one queued
 * delivery per webhook of its user that takes it. A feed item is one event appended for one user under the
 * recipients rule (shared/domain/events/recipients.ts), so deliveries reach exactly who the feed shows the event to;
 * an event copied into a feed from the vehicle's log (vehicle link, the feed migration) was emitted before and is not sent.
 */
import { queuedDelivery, type RoutableEvent, webhookTakes } from '../domain/webhooks/delivery.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { FEED_ENTITY } from '../store/feed.ts';
import type { Item } from '../store/requests.ts';
import { listWebhooks } from '../store/webhooks.ts';
import { deliveryQueue, type Enqueued } from './queues.ts';

/** An event for one user's webhooks. */
export interface AddressedEvent extends RoutableEvent {
  user_uid: number;
}

/** The event a feed item appended by a commit is, or undefined for every other item (the stream carries them all). */
export function routableEvent(item: Item | undefined): AddressedEvent | undefined {
  if (item?.entity !== FEED_ENTITY || item.copied !== undefined) return undefined;
  return {
    user_uid: Number(item.user_uid),
    event_id: String(item.event_id),
    type: String(item.type),
    vehicle_uid: Number(item.vehicle_uid),
    event: String(item.event),
  };
}

/**
 * Routes one batch's events, one at a time in stream order: the webhooks of a user are read once per batch. `route`
 * resolves when the event's deliveries are all queued, so the stream's position moves past it only then; it rejects
 * otherwise, and the event is routed again (a delivery queued twice reaches its webhook twice with the same
 * webhook-id: at least once).
 */
export function batchRouter(): { route(event: AddressedEvent): Promise<number> } {
  const webhooksOf = memo(listWebhooks);
  return {
    async route(event) {
      const endpoints: Webhook[] = await webhooksOf(event.user_uid);
      const messages: Enqueued[] = endpoints
        .filter((webhook) => webhookTakes(webhook, event))
        .map((endpoint) => ({ delivery: queuedDelivery(event.user_uid, endpoint.webhookUid, event, new Date()), delaySeconds: 0 }));
      if (messages.length > 0) await deliveryQueue().send(messages);
      return messages.length;
    },
  };
}

function memo<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const known = new Map<K, Promise<V>>();
  return (key) => {
    let value = known.get(key);
    if (!value) {
      value = read(key);
      known.set(key, value);
    }
    return value;
  };
}
