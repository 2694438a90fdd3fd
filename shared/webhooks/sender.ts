/**
 * The sender (docs/webhooks.md, "Delivery"): one queued delivery, one attempt at one webhook. The webhook is read
 * afresh, so a disabled or deleted one gets nothing more; its URL is checked again and the connection pinned to the
 * address checked (sendAttempt); the attempt is logged; a failure queues the next attempt as a new message, delayed
 * by the schedule or by the webhook's Retry-After, before this one is let go, so a sender that dies loses nothing.
 *
 * A batch (deliverBatch) always ends within its invocation: each attempt is given what is left of the invocation's
 * time (less what the attempt's bookkeeping needs), at most WEBHOOK_TIMEOUT_MS, and a message that cannot be given
 * enough goes round again, deferred, as do the rest of a webhook's messages once it has stalled (timed out, or at
 * its cap): one webhook never takes another's time, and every message has its own outcome.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSRecord } from 'aws-lambda';
import { config } from '../config.ts';
import type { DeliverableEvent, DeliveryAttempt, DeliveryState } from '../domain/webhooks/attempt.ts';
import { parseQueuedDelivery, type QueuedDelivery } from '../domain/webhooks/delivery.ts';
import { FAILING_WEBHOOK_REASON, failedForTooLong, GONE_RECEIVER_REASON, retryDelaySeconds } from '../domain/webhooks/retry-schedule.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { recordDeliveryAttempt } from '../store/webhook-attempts.ts';
import { leaseWebhookSlot, type SlotLease } from '../store/webhook-slots.ts';
import { findWebhookForDelivery, recordWebhookOutcome, type WebhookOutcome } from '../store/webhooks.ts';
import { logger } from '../telemetry.ts';
import { type AttemptOutcome, sendAttempt } from './attempt.ts';
import { type DeliveryQueue, deliveryQueue, type QueueRole, queueRoleOf, SQS_LIMITS } from './queues.ts';
import type { Resolve } from './url-check.ts';

/** How the message is let go: deleted from the queue, or kept (hidden until its time) to be received again. */
export type Disposition = 'done' | 'keep';

export interface Receipt {
  receiptHandle: string;
  /** epoch ms of this receive: a visibility timeout may reach 12 h from it */
  receivedAt: number;
}

/** What an attempt came to, for the sender's metrics. */
export type DeliveryResult = 'not yet' | 'webhook gone' | 'deferred' | DeliveryState;

/** The sender's time: what it reads and what it waits on, so tests run its waits on a clock of their own. */
export interface SenderClock {
  now(): number;
  /** a signal that aborts `ms` from now */
  after(ms: number): AbortSignal;
  sleep(ms: number): Promise<void>;
}

export const systemClock: SenderClock = {
  now: () => Date.now(),
  after: (ms) => AbortSignal.timeout(ms),
  sleep: (ms) => sleep(ms),
};

export interface SenderOptions {
  clock?: SenderClock;
  queues?: (role: QueueRole) => DeliveryQueue;
  /** the host lookup of sendAttempt (tests inject a slow one) */
  resolve?: Resolve;
}

/** A successful webhook's last_success is rewritten at most this often: a busy webhook's item is not a hot key. */
const SUCCESS_REFRESH_MS = 60_000;
/**
 * A webhook at its cap whose latest slot was taken less than SLOW_HOLD_MS ago is asked again a few times, about
 * this far apart: a fast webhook's slots turn over within milliseconds, so its burst is not sent round the queue.
 */
const SLOT_TRIES = 3;
const SLOT_RETRY_MS = 100;
/**
 * A webhook whose every slot was taken longer ago than this is slow: its slots will not free within the retries
 * above, so the delivery goes round at once rather than holding its sender (a healthy answer takes less).
 */
const SLOW_HOLD_MS = 300;
/**
 * A webhook at its cap is tried again after 1, 2, 3 ... s, at most this long: growing by a second, not doubling, so a
 * slow webhook's backlog follows its pace (doubling left a burst waiting a minute behind slots freed long before).
 */
const DEFERRAL_MAX_S = 60;
/**
 * What an attempt's bookkeeping may take after its POST (freeing the slot, queueing the next attempt, the log, the
 * webhook's outcome: four calls, each given 1.5 s by the clients): kept back from the invocation's time.
 */
export const ATTEMPT_RESERVE_MS = 6000;
/** Less than this left for a POST, and the delivery goes round again instead (never less than WEBHOOK_TIMEOUT_MS allows). */
export const MIN_ATTEMPT_MS = 2000;

/** The time an attempt may take with `leftMs` left in the invocation, or undefined when too little is left for one. */
export function attemptBudget(leftMs: number, timeoutMs: number): number | undefined {
  const budget = Math.min(timeoutMs, leftMs - ATTEMPT_RESERVE_MS);
  return budget >= Math.min(MIN_ATTEMPT_MS, timeoutMs) ? budget : undefined;
}

interface Delivered {
  disposition: Disposition;
  result: DeliveryResult;
  /** the webhook timed out or was at its cap: the batch's other messages to it go round again unattempted */
  stalled?: true;
}

export async function deliverQueued(
  delivery: QueuedDelivery,
  receipt: Receipt,
  {
    clock = systemClock,
    queues = deliveryQueue,
    resolve,
    deadlineAt = clock.now() + config.webhookTimeoutMs() + ATTEMPT_RESERVE_MS,
  }: SenderOptions & {
    /** epoch ms (the clock's) by which everything about this delivery must be done */
    deadlineAt?: number;
  } = {},
): Promise<Delivered> {
  const now = new Date(clock.now());
  if (!isDue(delivery, now)) return holdUntilDue(delivery, receipt, now, queues);
  const webhook = await findWebhookForDelivery(delivery.user_uid, delivery.webhook_uid);
  if (!webhook?.enabled) return { disposition: 'done', result: 'webhook gone' };

  const timeoutMs = config.webhookTimeoutMs();
  // The lease outlives the longest attempt (the target's lookup, the POST, the log), so it is never lost mid-attempt.
  const lease = await leaseSlot(delivery, timeoutMs + ATTEMPT_RESERVE_MS + 10_000, clock);
  if (!lease) return { ...(await deferDeliveries([delivery], now, queues)), stalled: true };
  const budget = attemptBudget(deadlineAt - clock.now(), timeoutMs);
  let outcome: AttemptOutcome;
  try {
    if (budget === undefined) return { ...(await deferDeliveries([delivery], now, queues)), stalled: true };
    outcome = await sendAttempt(webhook, JSON.parse(delivery.event) as DeliverableEvent, {
      now,
      timeoutMs: budget,
      deadline: clock.after(budget),
      ...(resolve ? { resolve } : {}),
    });
  } finally {
    await lease.release();
  }
  const decision = decide(delivery, webhook, outcome, now);
  if (decision.retryInS !== undefined) await queues('retries').send([nextAttempt(delivery, decision.retryInS, now)]);
  // The webhook first: whoever reads an attempt in the log finds the webhook already as that attempt left it.
  if (decision.endpoint) await recordWebhookOutcome(delivery.user_uid, delivery.webhook_uid, decision.endpoint);
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
  const timedOut = 'error' in outcome && outcome.error.startsWith('timed out');
  return { disposition: 'done', result: decision.state, ...(timedOut ? { stalled: true as const } : {}) };
}

const isDue = (delivery: QueuedDelivery, now: Date): boolean =>
  delivery.not_before === undefined || Date.parse(delivery.not_before) <= now.getTime();

/** A delivery not yet due is kept, hidden until its time (past the queue's 15-minute delay: 12 h at most a receive, chained). */
async function holdUntilDue(
  delivery: QueuedDelivery,
  receipt: Receipt,
  now: Date,
  queues: (role: QueueRole) => DeliveryQueue,
): Promise<Delivered> {
  const notBefore = Date.parse(delivery.not_before as string);
  const heldSoFar = Math.ceil((now.getTime() - receipt.receivedAt) / 1000);
  const seconds = Math.min(Math.ceil((notBefore - now.getTime()) / 1000), SQS_LIMITS.maxVisibilitySeconds - heldSoFar);
  // the message came from its role's queue (its receipt is that queue's)
  await queues(queueRoleOf(delivery)).changeVisibility(receipt.receiptHandle, Math.max(seconds, 0));
  return { disposition: 'keep', result: 'not yet' };
}

/**
 * Round the retries queue again, unattempted (in one call for a stalled webhook's messages), each after a wait growing
 * with its deferrals: never counted as a failure.
 */
async function deferDeliveries(
  deliveries: readonly QueuedDelivery[],
  now: Date,
  queues: (role: QueueRole) => DeliveryQueue,
): Promise<Delivered> {
  await queues('retries').send(
    deliveries.map((delivery) => {
      const deferrals = (delivery.deferrals ?? 0) + 1;
      const delaySeconds = Math.min(deferrals, DEFERRAL_MAX_S) + Math.round(Math.random());
      const dueAt = new Date(now.getTime() + delaySeconds * 1000).toISOString();
      return { delivery: { ...delivery, deferrals, due_at: dueAt }, delaySeconds };
    }),
  );
  return { disposition: 'done', result: 'deferred' };
}

/**
 * A slot of the webhook, waiting a little for one to free: a fast webhook's slots free within milliseconds, so its
 * burst is not sent round the queue; a slow webhook's deliveries past the cap are, at once, and hold no sender.
 */
async function leaseSlot(delivery: QueuedDelivery, holdMs: number, clock: SenderClock): Promise<SlotLease | undefined> {
  for (let tries = 1; ; tries++) {
    const answer = await leaseWebhookSlot(
      delivery.user_uid,
      delivery.webhook_uid,
      config.webhookEndpointConcurrency(),
      holdMs,
      clock.now(),
    );
    if ('lease' in answer) return answer.lease;
    if (tries === SLOT_TRIES || clock.now() - answer.newestTakenAt > SLOW_HOLD_MS) return undefined;
    await clock.sleep(SLOT_RETRY_MS * (0.5 + Math.random()));
  }
}

interface Decision {
  state: DeliveryState;
  retryInS?: number;
  /** what to record on the webhook; none when nothing changes */
  endpoint?: WebhookOutcome;
}

function decide(delivery: QueuedDelivery, webhook: Webhook, outcome: AttemptOutcome, now: Date): Decision {
  const at = now.toISOString();
  const status = 'status_code' in outcome ? outcome.status_code : undefined;
  if (status !== undefined && status >= 200 && status < 300) {
    const recent = webhook.lastSuccessAt !== null && now.getTime() - Date.parse(webhook.lastSuccessAt) < SUCCESS_REFRESH_MS;
    return { state: 'delivered', ...(recent && webhook.failingSince === null ? {} : { endpoint: { kind: 'success', at } }) };
  }
  if (status === 410) return { state: 'failed', endpoint: { kind: 'disabled', reason: GONE_RECEIVER_REASON } };
  if (failedForTooLong(webhook.failingSince, now))
    return { state: 'failed', endpoint: { kind: 'disabled', reason: FAILING_WEBHOOK_REASON } };
  const retryAfter = 'retry_after_s' in outcome ? outcome.retry_after_s : undefined;
  const retryInS = retryDelaySeconds(delivery.attempt, config.webhookRetrySchedule(), retryAfter);
  const failing: WebhookOutcome | undefined = webhook.failingSince === null ? { kind: 'failure', at } : undefined;
  if (retryInS === undefined) return { state: 'failed', ...(failing ? { endpoint: failing } : {}) };
  return { state: 'retrying', retryInS, ...(failing ? { endpoint: failing } : {}) };
}

/** The next attempt as a new message: delayed up to the queue's 15 minutes, the rest of the wait carried in not_before. */
function nextAttempt(delivery: QueuedDelivery, waitS: number, now: Date): { delivery: QueuedDelivery; delaySeconds: number } {
  const { deferrals: _, not_before: __, redelivery: ___, ...rest } = delivery;
  const delaySeconds = Math.min(Math.max(Math.round(waitS), 1), SQS_LIMITS.maxDelaySeconds);
  const dueAt = new Date(now.getTime() + waitS * 1000).toISOString();
  const next: QueuedDelivery = { ...rest, attempt: delivery.attempt + 1, due_at: dueAt };
  if (waitS > SQS_LIMITS.maxDelaySeconds) next.not_before = dueAt;
  return { delivery: next, delaySeconds };
}

/** What became of one message of a batch: the attempt's result, or why it stays in its queue. */
export type MessageResult = DeliveryResult | 'kept' | 'unreadable' | 'broken';

/** The messages a batch leaves in their queue (its batchItemFailures): every other one was dealt with and is deleted. */
export const LEFT_IN_QUEUE: ReadonlySet<MessageResult> = new Set(['kept', 'unreadable', 'broken']);

/**
 * One batch, each message its own outcome. One webhook's messages one after another, the webhooks at once: a batch
 * never races itself for a webhook's slots (a burst to one webhook would otherwise send every message of every
 * batch after its few slots at once). Everything is done `remainingMs` from now (the invocation's time left).
 */
export async function deliverBatch(
  records: readonly SQSRecord[],
  { remainingMs, ...options }: SenderOptions & { remainingMs: number },
): Promise<Map<SQSRecord, MessageResult>> {
  const clock = options.clock ?? systemClock;
  const run: BatchRun = {
    options: { ...options, clock, deadlineAt: clock.now() + remainingMs },
    queues: options.queues ?? deliveryQueue,
    // The poller received the batch a little before the invocation: the margin keeps a visibility inside its 12 h.
    receivedAt: clock.now() - 300_000,
    results: new Map(),
  };
  const deliverable: Message[] = [];
  for (const record of records) {
    const delivery = parseQueuedDelivery(record.body);
    if (delivery) deliverable.push({ record, delivery });
    else {
      logger.error('a message that is not a queued delivery', { messageId: record.messageId });
      run.results.set(record, 'unreadable');
    }
  }
  const byWebhook = Map.groupBy(deliverable, ({ delivery }) => `${delivery.user_uid}#${delivery.webhook_uid}`);
  await Promise.all([...byWebhook.values()].map((ofEndpoint) => deliverToWebhook(run, ofEndpoint)));
  return run.results;
}

interface Message {
  record: SQSRecord;
  delivery: QueuedDelivery;
}

interface BatchRun {
  options: SenderOptions & { clock: SenderClock; deadlineAt: number };
  queues: (role: QueueRole) => DeliveryQueue;
  receivedAt: number;
  results: Map<SQSRecord, MessageResult>;
}

/** A webhook's messages in turn, until it stalls: then the rest go round unattempted, in one call. */
async function deliverToWebhook(run: BatchRun, messages: readonly Message[]): Promise<void> {
  for (const [index, { record, delivery }] of messages.entries()) {
    const delivered = await settle(run, [record], () => deliverQueued(delivery, receiptOf(run, record), run.options));
    if (delivered?.stalled) return goRound(run, messages.slice(index + 1));
  }
}

/** A stalled webhook's messages left: those due are deferred in one call, one not yet due is kept for its time. */
async function goRound(run: BatchRun, rest: readonly Message[]): Promise<void> {
  const now = new Date(run.options.clock.now());
  for (const { record, delivery } of rest.filter((message) => !isDue(message.delivery, now)))
    await settle(run, [record], () => holdUntilDue(delivery, receiptOf(run, record), now, run.queues));
  const due = rest.filter((message) => isDue(message.delivery, now));
  if (due.length === 0) return;
  await settle(
    run,
    due.map(({ record }) => record),
    () =>
      deferDeliveries(
        due.map(({ delivery }) => delivery),
        now,
        run.queues,
      ),
  );
}

const receiptOf = (run: BatchRun, record: SQSRecord): Receipt => ({ receiptHandle: record.receiptHandle, receivedAt: run.receivedAt });

/** The work's result for its messages; an exception leaves them in the queue, to be received again. */
async function settle(run: BatchRun, records: readonly SQSRecord[], work: () => Promise<Delivered>): Promise<Delivered | undefined> {
  try {
    const delivered = await work();
    for (const record of records) run.results.set(record, delivered.disposition === 'keep' ? 'kept' : delivered.result);
    return delivered;
  } catch (error) {
    const messageIds = records.map((record) => record.messageId);
    logger.error('a delivery attempt broke; the message is received again', { error, messageIds });
    for (const record of records) run.results.set(record, 'broken');
    return undefined;
  }
}
