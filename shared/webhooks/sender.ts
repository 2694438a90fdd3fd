/**
 * The sender (docs/webhooks.md, "Delivery"): one queued delivery, one attempt at one endpoint. The endpoint is read
 * afresh, so a disabled or deleted one gets nothing more; its URL is checked again and the connection pinned to the
 * address checked (sendDelivery); the attempt is logged; a failure queues the next attempt as a new message, delayed
 * by the schedule or by the endpoint's Retry-After, before this one is let go, so a sender that dies loses nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config.ts';
import type { DeliverableEvent, DeliveryAttempt, DeliveryState } from '../domain/webhooks/delivery.ts';
import type { QueuedDelivery } from '../domain/webhooks/queued-delivery.ts';
import { FAILING_ENDPOINT_REASON, failedForTooLong, GONE_ENDPOINT_REASON, retryDelaySeconds } from '../domain/webhooks/retry-schedule.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { recordDeliveryAttempt } from '../store/webhook-deliveries.ts';
import { leaseEndpointSlot, type SlotLease } from '../store/webhook-slots.ts';
import { type EndpointOutcome, findWebhookForDelivery, recordEndpointOutcome } from '../store/webhooks.ts';
import { type DeliveryQueue, deliveryQueue, type QueueRole, queueRoleOf, SQS_LIMITS } from './delivery-queue.ts';
import { type AttemptOutcome, sendDelivery } from './send.ts';

/** How the message is let go: deleted from the queue, or kept (hidden until its time) to be received again. */
export type Disposition = 'done' | 'keep';

export interface Receipt {
  receiptHandle: string;
  /** epoch ms of this receive: a visibility timeout may reach 12 h from it */
  receivedAt: number;
}

/** What an attempt came to, for the sender's metrics. */
export type DeliveryResult = 'not yet' | 'endpoint gone' | 'deferred' | DeliveryState;

/** A successful endpoint's last_success is rewritten at most this often: a busy endpoint's item is not a hot key. */
const SUCCESS_REFRESH_MS = 60_000;
/** An endpoint at its cap is asked again a few times, about this far apart, before the delivery goes round the queue. */
const SLOT_TRIES = 4;
const SLOT_RETRY_MS = 250;
/**
 * An endpoint at its cap is tried again after 1, 2, 3 ... s, at most this long: growing by a second, not doubling, so a
 * slow endpoint's backlog follows its pace (doubling left a burst waiting a minute behind slots freed long before).
 */
const DEFERRAL_MAX_S = 60;

export async function deliverQueued(
  delivery: QueuedDelivery,
  receipt: Receipt,
  { now = new Date(), queues = deliveryQueue }: { now?: Date; queues?: (role: QueueRole) => DeliveryQueue } = {},
): Promise<{ disposition: Disposition; result: DeliveryResult }> {
  // the message came from its role's queue (its receipt is that queue's); what goes round again waits in the retries'
  const queue = queues(queueRoleOf(delivery));
  const notBefore = delivery.not_before === undefined ? 0 : Date.parse(delivery.not_before);
  if (notBefore > now.getTime()) {
    // A wait past the queue's 15-minute delay is served by visibility timeouts of up to 12 h each, chained.
    const heldSoFar = Math.ceil((now.getTime() - receipt.receivedAt) / 1000);
    const seconds = Math.min(Math.ceil((notBefore - now.getTime()) / 1000), SQS_LIMITS.maxVisibilitySeconds - heldSoFar);
    await queue.changeVisibility(receipt.receiptHandle, Math.max(seconds, 0));
    return { disposition: 'keep', result: 'not yet' };
  }
  const webhook = await findWebhookForDelivery(delivery.user_uid, delivery.webhook_uid);
  if (!webhook?.enabled) return { disposition: 'done', result: 'endpoint gone' };

  const timeoutMs = config.webhookTimeoutMs();
  // The lease outlives the longest attempt (the target's lookup, the POST, the log), so it is never lost mid-attempt.
  const lease = await leaseSlot(delivery, timeoutMs + 20_000);
  if (!lease) {
    const deferrals = (delivery.deferrals ?? 0) + 1;
    const delaySeconds = Math.min(deferrals, DEFERRAL_MAX_S) + Math.round(Math.random());
    const dueAt = new Date(now.getTime() + delaySeconds * 1000).toISOString();
    await queues('retries').send([{ delivery: { ...delivery, deferrals, due_at: dueAt }, delaySeconds }]);
    return { disposition: 'done', result: 'deferred' };
  }
  let outcome: AttemptOutcome;
  try {
    outcome = await sendDelivery(webhook, JSON.parse(delivery.event) as DeliverableEvent, { now, timeoutMs });
  } finally {
    await lease.release();
  }
  const decision = decide(delivery, webhook, outcome, now);
  if (decision.retryInS !== undefined) await queues('retries').send([nextAttempt(delivery, decision.retryInS, now)]);
  await recordDeliveryAttempt(delivery.user_uid, {
    webhookUid: delivery.webhook_uid,
    eventId: delivery.event_id,
    eventType: delivery.event_type,
    attempt: delivery.attempt,
    attemptedAt: now.toISOString(),
    statusCode: 'status_code' in outcome ? outcome.status_code : null,
    error: 'error' in outcome ? outcome.error : null,
    durationMs: outcome.duration_ms,
    state: decision.state,
    nextAttemptAt: decision.retryInS === undefined ? null : new Date(now.getTime() + decision.retryInS * 1000).toISOString(),
  } satisfies DeliveryAttempt);
  if (decision.endpoint) await recordEndpointOutcome(delivery.user_uid, delivery.webhook_uid, decision.endpoint);
  return { disposition: 'done', result: decision.state };
}

/**
 * A slot of the endpoint, waiting a little for one to free: a fast endpoint's slots free within milliseconds, so its
 * burst is not sent round the queue; a slow endpoint's deliveries past the cap are, and hold no sender long.
 */
async function leaseSlot(delivery: QueuedDelivery, holdMs: number): Promise<SlotLease | undefined> {
  for (let tries = 1; ; tries++) {
    const lease = await leaseEndpointSlot(delivery.user_uid, delivery.webhook_uid, config.webhookEndpointConcurrency(), holdMs);
    if (lease || tries === SLOT_TRIES) return lease;
    await sleep(SLOT_RETRY_MS * (0.5 + Math.random()));
  }
}

interface Decision {
  state: DeliveryState;
  retryInS?: number;
  /** what to record on the endpoint; none when nothing changes */
  endpoint?: EndpointOutcome;
}

function decide(delivery: QueuedDelivery, webhook: Webhook, outcome: AttemptOutcome, now: Date): Decision {
  const at = now.toISOString();
  const status = 'status_code' in outcome ? outcome.status_code : undefined;
  if (status !== undefined && status >= 200 && status < 300) {
    const recent = webhook.lastSuccessAt !== null && now.getTime() - Date.parse(webhook.lastSuccessAt) < SUCCESS_REFRESH_MS;
    return { state: 'delivered', ...(recent && webhook.failingSince === null ? {} : { endpoint: { kind: 'success', at } }) };
  }
  if (status === 410) return { state: 'failed', endpoint: { kind: 'disabled', reason: GONE_ENDPOINT_REASON } };
  if (failedForTooLong(webhook.failingSince, now))
    return { state: 'failed', endpoint: { kind: 'disabled', reason: FAILING_ENDPOINT_REASON } };
  const retryAfter = 'retry_after_s' in outcome ? outcome.retry_after_s : undefined;
  const retryInS = retryDelaySeconds(delivery.attempt, config.webhookRetrySchedule(), retryAfter);
  const failing: EndpointOutcome | undefined = webhook.failingSince === null ? { kind: 'failure', at } : undefined;
  if (retryInS === undefined) return { state: 'failed', ...(failing ? { endpoint: failing } : {}) };
  return { state: 'retrying', retryInS, ...(failing ? { endpoint: failing } : {}) };
}

/** The next attempt as a new message: delayed up to the queue's 15 minutes, the rest of the wait carried in not_before. */
function nextAttempt(delivery: QueuedDelivery, waitS: number, now: Date): { delivery: QueuedDelivery; delaySeconds: number } {
  const { deferrals: _, not_before: __, ...rest } = delivery;
  const delaySeconds = Math.min(Math.max(Math.round(waitS), 1), SQS_LIMITS.maxDelaySeconds);
  const dueAt = new Date(now.getTime() + waitS * 1000).toISOString();
  const next: QueuedDelivery = { ...rest, attempt: delivery.attempt + 1, due_at: dueAt };
  if (waitS > SQS_LIMITS.maxDelaySeconds) next.not_before = dueAt;
  return { delivery: next, delaySeconds };
}
