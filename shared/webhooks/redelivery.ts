/**
 * redeliverEvents (docs/webhooks.md, "Redelivery"): events of the user's feed queued again for one webhook, as new
 * deliveries (attempt 1, the same webhook-id), through the same queue the router fills, so the sender treats them as any other.
 */
import type { FleetEvent } from '../domain/events/event.ts';
import { EVENT_NOT_TAKEN, MAX_REDELIVERED, WEBHOOK_DISABLED } from '../domain/webhooks/attempt.ts';
import { queuedDelivery, type RoutableEvent, webhookTakes } from '../domain/webhooks/delivery.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { Conflict, NotFound } from '../errors.ts';
import { readEventFeed } from '../paging/event-feed.ts';
import { eventOfFeedText, type FeedPosition, findFeedEvent } from '../store/feed.ts';
import { deliveryQueue } from './queues.ts';

const routable = (event: FleetEvent): RoutableEvent => ({
  event_id: event.event_id,
  type: event.type,
  vehicle_uid: event.data.vehicle_uid,
  event: JSON.stringify(event),
});

/** On the retries queue: up to MAX_REDELIVERED messages a call never stand in front of other users' first attempts. */
async function enqueueFor(userUid: number, webhook: Webhook, events: readonly FleetEvent[]): Promise<void> {
  if (events.length === 0) return;
  const now = new Date();
  await deliveryQueue('retries').send(
    events.map((event) => ({
      delivery: { ...queuedDelivery(userUid, webhook.webhookUid, routable(event), now), redelivery: true },
      delaySeconds: 0,
    })),
  );
}

const refuseDisabled = (webhook: Webhook): void => {
  if (!webhook.enabled) throw new Conflict(WEBHOOK_DISABLED);
};

/** One event again: one of the user's feed (else not found), and one the webhook takes (else a conflict). */
export async function redeliverEvent(userUid: number, webhook: Webhook, eventId: string): Promise<number> {
  refuseDisabled(webhook);
  const event = await findFeedEvent(userUid, eventId);
  if (!event) throw NotFound.notLinked('event');
  if (!webhookTakes(webhook, routable(event))) throw new Conflict(EVENT_NOT_TAKEN);
  await enqueueFor(userUid, webhook, [event]);
  return 1;
}

/**
 * The events of the user's feed the webhook takes, from a position on, in feed order: at most MAX_REDELIVERED queued
 * and at most that many read (one Query). `next` is the position after the last event read when more may follow
 * (else null): however many events share one second, each call moves on.
 */
export async function redeliverFrom(
  userUid: number,
  webhook: Webhook,
  position: FeedPosition,
): Promise<{ queued: number; next: FeedPosition | null }> {
  refuseDisabled(webhook);
  const filter = {
    vehicleUids: webhook.vehicleUids.length === 0 ? undefined : webhook.vehicleUids,
    types: webhook.eventTypes.length === 0 ? undefined : webhook.eventTypes,
  };
  const feed = await readEventFeed(userUid, position, filter, MAX_REDELIVERED);
  await enqueueFor(userUid, webhook, feed.eventTexts.map(eventOfFeedText));
  return { queued: feed.eventTexts.length, next: feed.more ? feed.position : null };
}
