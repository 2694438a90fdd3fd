/**
 * Where deliveries wait (docs/webhooks.md, "Delivery"): first attempts in the deliveries queue, what goes round again
 * (a retry, a delivery deferred by its webhook's cap) in the retries queue, so a failing webhook's retries never
 * queue in front of another webhook's first attempts. Each is the SQS queue WEBHOOK_QUEUE_URL or
 * WEBHOOK_RETRY_QUEUE_URL names (AWS), else the in-process queue the local stack registers (`npm start`, the tests),
 * which refuses what SQS refuses. The router, the sender and redeliverEvents enqueue through here and never know
 * which. Made on first use: module init does no I/O.
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsClientTimeouts, config } from '../config.ts';
import type { QueuedDelivery } from '../domain/webhooks/delivery.ts';
import { tracer } from '../telemetry.ts';

/** SQS quotas (SQS developer guide, "Amazon SQS message quotas"): past any of them the call is refused. */
export const SQS_LIMITS = {
  messageBytes: 262_144,
  batchEntries: 10,
  maxDelaySeconds: 900,
  /** a receipt's visibility timeout, counted from the receive */
  maxVisibilitySeconds: 43_200,
} as const;

export interface Enqueued {
  delivery: QueuedDelivery;
  /** whole seconds, 0 to 900 */
  delaySeconds: number;
}

export interface DeliveryQueue {
  /** resolves once every message is in the queue; rejects (the caller's batch is retried) when any is not */
  send(messages: readonly Enqueued[]): Promise<void>;
  /** hides a received message for `seconds` from now (at most 12 h from its receive) */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
}

/** Why SQS would refuse this batch, or undefined: the local queue refuses the same, so a test cannot pass on what AWS refuses. */
export function sqsBatchRefusal(bodies: readonly { body: string; delaySeconds: number }[]): string | undefined {
  if (bodies.length > SQS_LIMITS.batchEntries) return `batch of ${bodies.length} messages (at most ${SQS_LIMITS.batchEntries})`;
  const total = bodies.reduce((sum, { body }) => sum + Buffer.byteLength(body), 0);
  if (total > SQS_LIMITS.messageBytes) return `batch of ${total} bytes (at most ${SQS_LIMITS.messageBytes})`;
  const badDelay = bodies.find(
    ({ delaySeconds }) => !Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > SQS_LIMITS.maxDelaySeconds,
  );
  if (badDelay) return `DelaySeconds of ${badDelay.delaySeconds} (a whole number from 0 to ${SQS_LIMITS.maxDelaySeconds})`;
  return undefined;
}

export function sqsVisibilityRefusal(seconds: number): string | undefined {
  return Number.isInteger(seconds) && seconds >= 0 && seconds <= SQS_LIMITS.maxVisibilitySeconds
    ? undefined
    : `VisibilityTimeout of ${seconds} (a whole number from 0 to ${SQS_LIMITS.maxVisibilitySeconds})`;
}

/** Batches of at most 10 messages and 256 KB, in order. */
export function sqsBatches(messages: readonly Enqueued[]): Enqueued[][] {
  const batches: Enqueued[][] = [];
  let current: Enqueued[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = Buffer.byteLength(JSON.stringify(message.delivery));
    if (current.length === SQS_LIMITS.batchEntries || (current.length > 0 && bytes + size > SQS_LIMITS.messageBytes)) {
      batches.push(current);
      [current, bytes] = [[], 0];
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export function sqsDeliveryQueue(client: SQSClient, queueUrl: string): DeliveryQueue {
  const sendBatch = async (batch: Enqueued[]): Promise<void> => {
    let pending = batch.map((message, index) => ({
      Id: String(index),
      MessageBody: JSON.stringify(message.delivery),
      DelaySeconds: message.delaySeconds,
    }));
    // An entry SQS reports failed (throttled, an internal error) is sent once more before the whole call fails.
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 2) throw new Error(`${pending.length} deliveries not taken by the queue`);
      const { Failed = [] } = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
      const failed = new Set(Failed.map((entry) => entry.Id));
      pending = pending.filter((entry) => failed.has(entry.Id));
    }
  };
  return {
    async send(messages) {
      await Promise.all(sqsBatches(messages).map(sendBatch));
    },
    async changeVisibility(receiptHandle, seconds) {
      await client.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }),
      );
    },
  };
}

export type QueueRole = 'deliveries' | 'retries';

/**
 * Where a delivery waits follows from what it is: a first attempt routed from the stream, not yet deferred; or one
 * going round again, or asked for again by redeliverEvents.
 */
export const queueRoleOf = (delivery: Pick<QueuedDelivery, 'attempt' | 'deferrals' | 'redelivery'>): QueueRole =>
  delivery.attempt > 1 || (delivery.deferrals ?? 0) > 0 || delivery.redelivery === true ? 'retries' : 'deliveries';

const sqsQueues = new Map<QueueRole, DeliveryQueue>();
let localQueues: Record<QueueRole, DeliveryQueue> | undefined;

/** The local stack's queues (local/sqs-queue.ts), used when no queue URL is configured. */
export function useLocalDeliveryQueues(queues: Record<QueueRole, DeliveryQueue> | undefined): void {
  localQueues = queues;
}

export function deliveryQueue(role: QueueRole = 'deliveries'): DeliveryQueue {
  const queueUrl = role === 'deliveries' ? config.webhookQueueUrl() : config.webhookRetryQueueUrl();
  if (queueUrl) {
    const queue = sqsQueues.get(role) ?? sqsDeliveryQueue(tracer.captureAWSv3Client(new SQSClient(awsClientTimeouts())), queueUrl);
    sqsQueues.set(role, queue);
    return queue;
  }
  if (!localQueues) throw new Error(`no webhook ${role} queue (WEBHOOK_QUEUE_URL, WEBHOOK_RETRY_QUEUE_URL) and no local queues`);
  return localQueues[role];
}

/**
 * The deliveries queue's and its consumers' settings, shared by the stack (infra/webhooks/webhook-delivery.ts) and the local
 * queue (local/webhooks.ts) so both behave alike (docs/decisions.md, "Webhook delivery").
 */
export const deliverySettings = {
  /** a sender invocation's limit: a batch's attempts run at once, each at most 10 s plus its lookups and writes */
  senderTimeoutS: 30,
  /** SQS's advice for a Lambda consumer: six times the function's timeout */
  visibilityTimeoutS: 180,
  /** receives of one message before it is dead-lettered: a long wait uses up to three, the rest are broken attempts */
  maxReceiveCount: 10,
  senderBatchSize: 10,
  /**
   * sender invocations at once per queue (each event source's maximum concurrency; the most POSTs in flight is ten
   * times this): the retries' beside, never instead of, the first attempts'
   */
  senderConcurrency: { deliveries: 20, retries: 10 } satisfies Record<QueueRole, number>,
  routerBatchSize: 100,
} as const;
