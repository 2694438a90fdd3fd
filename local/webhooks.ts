/**
 * Webhook delivery in this process (docs/webhooks.md, "Locally"): the table's stream feeds the router function's
 * handler, which enqueues on the in-process queues (first attempts, and retries), whose pollers feed the sender
 * function's handler: the same code as the Lambda functions in AWS, with the same batch sizes and queue settings.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handlerPath } from '../functions/registry.ts';
import { env } from '../shared/config.ts';
import { FEED_ENTITY } from '../shared/store/feed.ts';
import { deliverySettings, type QueueRole, useLocalDeliveryQueues } from '../shared/webhooks/queues.ts';
import { lambdaContext } from './api-gateway-event.ts';
import { runAs } from './iam/enforcement.ts';
import { type LocalDeliveryQueue, localDeliveryQueue, startQueuePoller } from './sqs-queue.ts';
import { startTableStream } from './table-stream.ts';

export interface LocalWebhookDelivery {
  queues: Record<QueueRole, LocalDeliveryQueue>;
  /** sender invocations that ran past the function's timeout */
  timedOutInvocations(): number;
  stop(): Promise<void>;
}

/** Each queue's URL variable, as the stack gives it to the functions that use the queue (infra/webhooks/webhook-delivery.ts). */
const URL_VARIABLES: Record<QueueRole, string> = { deliveries: env.webhookQueueUrl, retries: env.webhookRetryQueueUrl };

type Handler<E, R> = (event: E, context: ReturnType<typeof lambdaContext>) => Promise<R>;

const load = async <E, R>(name: string): Promise<(event: E) => Promise<R>> => {
  const { handler } = (await import(new URL(`../${handlerPath(name)}`, import.meta.url).href)) as { handler: Handler<E, R> };
  let invocation = 0;
  // Each runs with its role's permissions in the synthesized stack (local/iam/).
  return (event) =>
    runAs(handlerPath(name), () => handler(event, lambdaContext(name, `${name}-${++invocation}`, deliverySettings.senderTimeoutS * 1000)));
};

/**
 * `stream: false` runs the queue and the sender alone: deliveries come only from what is enqueued in this process
 * (redeliverEvents).
 */
export async function startWebhookDelivery({
  stream: readStream = true,
  ...options
}: {
  endpoint: string;
  tableName: string;
  checkpointFile?: string;
  stream?: boolean;
}): Promise<LocalWebhookDelivery> {
  const queues = {
    deliveries: localDeliveryQueue({ ...deliverySettings, name: 'webhook-deliveries', urlVariable: URL_VARIABLES.deliveries }),
    retries: localDeliveryQueue({ ...deliverySettings, name: 'webhook-retries', urlVariable: URL_VARIABLES.retries }),
  };
  useLocalDeliveryQueues(queues);
  // the sender's two event sources, each with its own concurrency (infra/webhooks/webhook-delivery.ts)
  const sender = await load<SQSEvent, SQSBatchResponse>('sendWebhooks');
  const pollers = await Promise.all(
    (['deliveries', 'retries'] as const).map((role) =>
      startQueuePoller({
        queue: queues[role],
        consumer: handlerPath('sendWebhooks'),
        urlVariable: URL_VARIABLES[role],
        handler: sender,
        batchSize: deliverySettings.senderBatchSize,
        concurrency: deliverySettings.senderConcurrency[role],
        timeoutMs: deliverySettings.senderTimeoutS * 1000,
      }),
    ),
  );
  const stopPollers = async () => void (await Promise.all(pollers.map((poller) => poller.stop())));
  const stream = await (readStream ? startTableStream : noStream)({
    ...options,
    handler: await load<DynamoDBStreamEvent, DynamoDBBatchResponse>('routeWebhookEvents'),
    batchSize: deliverySettings.routerBatchSize,
    // the router's event source filter (infra/webhooks/webhook-delivery.ts): INSERTs of feed items appended by a commit only
    filter: (record) =>
      record.eventName === 'INSERT' &&
      record.dynamodb?.NewImage?.entity?.S === FEED_ENTITY &&
      record.dynamodb.NewImage.copied === undefined,
  }).catch(async (error) => {
    await stopPollers();
    throw error;
  });
  return {
    queues,
    timedOutInvocations: () => pollers.reduce((sum, poller) => sum + poller.timedOut(), 0),
    async stop() {
      await stream.stop();
      await stopPollers();
      useLocalDeliveryQueues(undefined);
    },
  };
}

const noStream = async (_options: unknown) => ({ stop: async () => undefined });
