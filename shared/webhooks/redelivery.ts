/**
 * redeliverEvents (docs/webhooks.md, "Redelivery"): events of the log queued again for one endpoint, as new deliveries
 * (attempt 1, the same webhook-id), through the same queue the router fills, so the sender treats them as any other.
 */
import type { FleetEvent } from '../domain/events/event.ts';
import { EVENT_NOT_TAKEN, MAX_REDELIVERED, WEBHOOK_DISABLED } from '../domain/webhooks/delivery.ts';
import { endpointTakes, queuedDelivery, type RoutableEvent } from '../domain/webhooks/queued-delivery.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { Conflict, NotFound } from '../errors.ts';
import { readEventFeed } from '../paging/event-feed.ts';
import { findEventsById } from '../store/events.ts';
import { listVehicleLinks } from '../store/vehicles.ts';
import { deliveryQueue } from './delivery-queue.ts';

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

/** One event again: one of the user's vehicles' (else not found), and one the endpoint takes (else a conflict). */
export async function redeliverEvent(userUid: number, webhook: Webhook, eventId: string): Promise<number> {
  refuseDisabled(webhook);
  const [events, links] = await Promise.all([findEventsById(eventId), listVehicleLinks(userUid)]);
  const linked = new Set(links.map((link) => link.vehicleUid));
  const event = events.filter((candidate) => linked.has(candidate.data.vehicle_uid)).at(-1);
  if (!event) throw NotFound.notLinked('event');
  if (!endpointTakes(webhook, routable(event))) throw new Conflict(EVENT_NOT_TAKEN);
  await enqueueFor(userUid, webhook, [event]);
  return 1;
}

/**
 * The events the endpoint takes emitted from `since` (ISO) on, oldest first, at most MAX_REDELIVERED: one Query per
 * vehicle in parallel after the links. `nextSince` is the emission time of the last one queued when more may follow.
 */
export async function redeliverSince(
  userUid: number,
  webhook: Webhook,
  since: string,
): Promise<{ queued: number; nextSince: string | null }> {
  refuseDisabled(webhook);
  const links = await listVehicleLinks(userUid);
  const vehicleUids = links
    .map((link) => link.vehicleUid)
    .filter((uid) => webhook.vehicleUids.length === 0 || webhook.vehicleUids.includes(uid));
  const feed = await readEventFeed({
    vehicleUids,
    position: { at: since, seen: [] },
    fresh: true,
    types: webhook.eventTypes.length === 0 ? undefined : webhook.eventTypes,
    limit: MAX_REDELIVERED,
  });
  await enqueueFor(userUid, webhook, feed.events);
  const full = feed.events.length === MAX_REDELIVERED;
  return { queued: feed.events.length, nextSince: full ? (feed.events.at(-1) as FleetEvent).timestamp : null };
}
