/**
 * SQS, in this process, for `npm start` and the tests: the deliveries queue with what the sender relies on (a delay
 * per message, a visibility timeout per receive that ChangeMessageVisibility resets, a receive count, a dead-letter
 * queue after maxReceiveCount) and refusing what SQS refuses (shared/webhooks/queues.ts, SQS_LIMITS). A poller
 * takes batches as Lambda's SQS event source does and hands them to the same handler, deleting what it did not report
 * failed, within the function's timeout as Lambda enforces it. Messages live in memory: a stopped npm start forgets
 * the queued ones (docs/webhooks.md, "Locally").
 *
 * IAM as SQS enforces it (local/iam/): a send or a visibility change is asked of the running function's role, with
 * the queue's ARN as that function would name it (the queue URL of its environment), and a poller starts only for a
 * function whose role may receive and delete, as Lambda checks when an event source mapping is created.
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type DeliveryQueue, type Enqueued, sqsBatches, sqsBatchRefusal, sqsVisibilityRefusal } from '../shared/webhooks/queues.ts';
import { awsRequestsOf } from './iam/arns.ts';
import { authorize, runAs } from './iam/enforcement.ts';

interface Message {
  id: string;
  body: string;
  visibleAt: number;
  receiveCount: number;
  receivedAt?: number;
  /** the handle of the latest receive: an older one no longer deletes or hides it */
  receiptHandle?: string;
}

export interface LocalQueueOptions {
  /** the queue's name, in the ARN its records carry */
  name: string;
  /** the environment variable that gives a function this queue's URL (WEBHOOK_QUEUE_URL): its ARN, as IAM sees it */
  urlVariable: string;
  /** the queue's visibility timeout, as set on the SQS queue in infra/webhooks/webhook-delivery.ts */
  visibilityTimeoutS: number;
  /** receives after which a message goes to the dead-letter queue */
  maxReceiveCount: number;
}

export interface LocalDeliveryQueue extends DeliveryQueue {
  /** up to `max` (at most 10) visible messages, each received: hidden for the visibility timeout, its count raised */
  receive(max: number, now?: number): SQSRecord[];
  deleteMessage(receiptHandle: string): void;
  /** messages waiting or in flight, those dead-lettered, and every message ever sent to it */
  depth(): { queued: number; deadLetters: number; sent: number };
  /** the bodies of the messages waiting or in flight */
  bodies(): string[];
  deadLetters(): string[];
  /** the soonest instant a hidden message becomes visible, if any */
  nextVisibleAt(): number | undefined;
  onVisible(listener: () => void): void;
}

export class QueueRefusal extends Error {}

/** The running function's permission for `command` on the queue its `urlVariable` names (AccessDeniedException if none). */
const authorizeQueueCall = (urlVariable: string, command: string): Promise<void> =>
  authorize((principal) => awsRequestsOf('SQSClient', command, { QueueUrl: principal.environment[urlVariable] ?? `(no ${urlVariable})` }));

export function localDeliveryQueue({ name, urlVariable, visibilityTimeoutS, maxReceiveCount }: LocalQueueOptions): LocalDeliveryQueue {
  const messages = new Map<string, Message>();
  const deadLetters: string[] = [];
  let sent = 0;
  const listeners: Array<() => void> = [];
  const byReceipt = (receiptHandle: string): Message | undefined => [...messages.values()].find((m) => m.receiptHandle === receiptHandle);
  const notify = () => {
    for (const listener of listeners) listener();
  };

  return {
    async send(input: readonly Enqueued[]) {
      await authorizeQueueCall(urlVariable, 'SendMessageBatchCommand');
      for (const batch of sqsBatches(input)) {
        const bodies = batch.map((message) => ({ body: JSON.stringify(message.delivery), delaySeconds: message.delaySeconds }));
        const refusal = sqsBatchRefusal(bodies);
        if (refusal) throw new QueueRefusal(`SQS would refuse a ${refusal}`);
        const now = Date.now();
        for (const { body, delaySeconds } of bodies) {
          const id = randomUUID();
          messages.set(id, { id, body, visibleAt: now + delaySeconds * 1000, receiveCount: 0 });
          sent += 1;
        }
      }
      notify();
    },
    async changeVisibility(receiptHandle, seconds) {
      const refusal = sqsVisibilityRefusal(seconds);
      if (refusal) throw new QueueRefusal(`SQS would refuse a ${refusal}`);
      await authorizeQueueCall(urlVariable, 'ChangeMessageVisibilityCommand');
      const message = byReceipt(receiptHandle);
      if (!message) throw new QueueRefusal('SQS would refuse a receipt handle that is not the latest receive of a queued message');
      const now = Date.now();
      if (now + seconds * 1000 > (message.receivedAt ?? now) + 43_200_000 + 1000 && message.receiptHandle)
        throw new QueueRefusal('SQS would refuse a visibility timeout past 12 h from the receive');
      message.visibleAt = now + seconds * 1000;
      notify();
    },
    receive(max, now = Date.now()) {
      const taken: SQSRecord[] = [];
      for (const message of messages.values()) {
        if (taken.length >= Math.min(max, 10)) break;
        if (message.visibleAt > now) continue;
        if (message.receiveCount >= maxReceiveCount) {
          messages.delete(message.id);
          deadLetters.push(message.body);
          continue;
        }
        message.receiveCount += 1;
        message.receiptHandle = randomUUID();
        message.receivedAt = now;
        message.visibleAt = now + visibilityTimeoutS * 1000;
        taken.push(sqsRecord(name, message, now));
      }
      return taken;
    },
    deleteMessage(receiptHandle) {
      const message = byReceipt(receiptHandle);
      if (message) messages.delete(message.id);
    },
    depth: () => ({ queued: messages.size, deadLetters: deadLetters.length, sent }),
    bodies: () => [...messages.values()].map((message) => message.body),
    deadLetters: () => [...deadLetters],
    nextVisibleAt() {
      let soonest: number | undefined;
      for (const message of messages.values()) if (soonest === undefined || message.visibleAt < soonest) soonest = message.visibleAt;
      return soonest;
    },
    onVisible(listener) {
      listeners.push(listener);
    },
  };
}

function sqsRecord(queueName: string, message: Message, now: number): SQSRecord {
  return {
    messageId: message.id,
    receiptHandle: message.receiptHandle as string,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(now),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(now),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
    awsRegion: 'local',
  };
}

export interface QueuePollerOptions {
  queue: LocalDeliveryQueue;
  /** the consuming function's handler entry (functions/<name>/handler.ts): its role receives and deletes */
  consumer: string;
  /** the queue's URL variable in the consumer's environment (its ARN) */
  urlVariable: string;
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;
  batchSize: number;
  /** batches handled at once, as the event source's maximum concurrency */
  concurrency: number;
  /** the function's timeout: an invocation still running then has failed, as Lambda ends it */
  timeoutMs: number;
}

export interface QueuePoller {
  stop(): Promise<void>;
  /** invocations that ran past the function's timeout (their messages all came back) */
  timedOut(): number;
}

/** What Lambda asks of the role when an SQS event source mapping is created (and uses at every poll). */
const CONSUMER_COMMANDS = ['ReceiveMessageCommand', 'DeleteMessageBatchCommand', 'GetQueueAttributesCommand'];

/**
 * Lambda's SQS event source, in this process: batches to the handler; what it did not report failed is deleted,
 * unless the invocation failed or ran past the function's timeout. Refuses to start, as creating the mapping would,
 * when the consumer's role may not receive and delete.
 */
export async function startQueuePoller({
  queue,
  consumer,
  urlVariable,
  handler,
  batchSize,
  concurrency,
  timeoutMs,
}: QueuePollerOptions): Promise<QueuePoller> {
  await runAs(consumer, () => Promise.all(CONSUMER_COMMANDS.map((command) => authorizeQueueCall(urlVariable, command))));
  let running = true;
  let inFlight = 0;
  let timedOut = 0;
  const batches = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;

  const invoke = async (records: SQSRecord[]): Promise<void> => {
    let limit: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timed out'>((resolve) => {
      limit = setTimeout(() => resolve('timed out'), timeoutMs);
    });
    try {
      const response = await Promise.race([handler({ Records: records }), timeout]);
      if (response === 'timed out') {
        timedOut += 1;
        return;
      }
      const failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
      for (const record of records) if (!failed.has(record.messageId)) queue.deleteMessage(record.receiptHandle);
    } catch {
      // a failed invocation deletes nothing: every message comes back after its visibility timeout
    } finally {
      clearTimeout(limit);
    }
  };

  const pump = (): void => {
    clearTimeout(timer);
    timer = undefined;
    while (running && inFlight < concurrency) {
      const records = queue.receive(batchSize);
      if (records.length === 0) break;
      inFlight += 1;
      const batch = invoke(records).finally(() => {
        inFlight -= 1;
        batches.delete(batch);
        pump();
      });
      batches.add(batch);
    }
    const next = queue.nextVisibleAt();
    if (running && next !== undefined && inFlight < concurrency) timer = setTimeout(pump, Math.max(next - Date.now(), 5)).unref();
  };
  queue.onVisible(() => setImmediate(pump));
  pump();
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      await Promise.allSettled([...batches]);
    },
    timedOut: () => timedOut,
  };
}
