/**
 * The outbox's router (docs/webhooks.md, "Delivery"): each event item the table's stream carries becomes one queued
 * delivery per endpoint that takes it. An event reaches only its vehicle's users (every user the vehicle is linked
 * to, a shared vehicle's included), and of theirs only the enabled endpoints whose filters let it through.
 */
import { endpointTakes, queuedDelivery, type RoutableEvent } from '../domain/webhooks/queued-delivery.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import type { Item } from '../store/requests.ts';
import { listVehicleUsers } from '../store/tracks.ts';
import { listWebhooks } from '../store/webhooks.ts';
import { deliveryQueue, type Enqueued } from './delivery-queue.ts';

/** The event an item of the table is, or undefined for every other item (the stream carries them all). */
export function routableEvent(item: Item | undefined): RoutableEvent | undefined {
  if (item?.entity !== 'event') return undefined;
  return { event_id: String(item.event_id), type: String(item.type), vehicle_uid: Number(item.vehicle_uid), event: String(item.event) };
}

/**
 * Routes one batch's events, one at a time in stream order: the users of a vehicle and the endpoints of a user are
 * read once per batch. `route` resolves when the event's deliveries are all queued, so the stream's position moves
 * past it only then; it rejects otherwise, and the event is routed again (a delivery queued twice reaches its endpoint
 * twice with the same webhook-id: at least once).
 */
export function batchRouter(): { route(event: RoutableEvent): Promise<number> } {
  const usersOf = memo(listVehicleUsers);
  const endpointsOf = memo(listWebhooks);
  return {
    async route(event) {
      const messages: Enqueued[] = [];
      for (const userUid of await usersOf(event.vehicle_uid)) {
        const endpoints: Webhook[] = await endpointsOf(userUid);
        for (const endpoint of endpoints.filter((webhook) => endpointTakes(webhook, event)))
          messages.push({ delivery: queuedDelivery(userUid, endpoint.webhookUid, event, new Date()), delaySeconds: 0 });
      }
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
