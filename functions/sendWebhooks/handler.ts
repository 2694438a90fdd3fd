import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseQueuedDelivery } from '../../shared/domain/webhooks/queued-delivery.ts';
import { logger, MetricUnit, metricNames, metrics, tracer } from '../../shared/telemetry.ts';
import { type DeliveryResult, deliverQueued } from '../../shared/webhooks/sender.ts';

/**
 * The deliveries queue → one attempt per message, the batch's endpoints at once, so one slow endpoint's POST does not
 * hold the others' (docs/webhooks.md, "Delivery"). A message reported failed stays in the queue: one kept for its
 * time, one that is not ours (it reaches the dead-letter queue after its receives) or one whose attempt broke on AWS.
 */
async function sendWebhooksBatch(event: SQSEvent): Promise<SQSBatchResponse> {
  logger.appendKeys({ operation: 'sendWebhooks' });
  tracer.putAnnotation('operation', 'sendWebhooks');
  // The poller received the batch a little before the invocation: the margin keeps a visibility inside its 12 h.
  const invokedAt = Date.now();
  const receivedAt = invokedAt - 300_000;
  type Message = { record: SQSRecord; delivery: ReturnType<typeof parseQueuedDelivery> };
  const messages: Message[] = event.Records.map((record) => ({ record, delivery: parseQueuedDelivery(record.body) }));
  const attempt = async ({ record, delivery }: Message): Promise<DeliveryResult | 'kept' | 'unreadable' | 'broken'> => {
    if (!delivery) {
      logger.error('a message that is not a queued delivery', { messageId: record.messageId });
      return 'unreadable';
    }
    try {
      const { disposition, result } = await deliverQueued(delivery, { receiptHandle: record.receiptHandle, receivedAt });
      return disposition === 'keep' ? 'kept' : result;
    } catch (error) {
      logger.error('a delivery attempt broke; the message is received again', { error, messageId: record.messageId });
      return 'broken';
    }
  };
  // One endpoint's messages one after another, the endpoints at once: a batch never races itself for an endpoint's
  // slots (a burst to one endpoint would otherwise send every message of every batch after its few slots at once).
  // A message that is not a delivery goes alone.
  const endpointOf = ({ record, delivery }: Message) => (delivery ? `${delivery.user_uid}#${delivery.webhook_uid}` : record.messageId);
  const results = new Map<SQSRecord, Awaited<ReturnType<typeof attempt>>>();
  await Promise.all(
    [...Map.groupBy(messages, endpointOf).values()].map(async (ofEndpoint) => {
      for (const message of ofEndpoint) results.set(message.record, await attempt(message));
    }),
  );
  const lags = messages
    .map(({ delivery }) => delivery?.due_at)
    .filter((due): due is string => due !== undefined)
    .map((due) => Math.max(0, (invokedAt - Date.parse(due)) / 1000));
  if (lags.length > 0) metrics.addMetric(metricNames.webhookDeliveryLag, MetricUnit.Seconds, Math.max(...lags));
  const count = (wanted: string): number => [...results.values()].filter((result) => result === wanted).length;
  metrics.addMetric(metricNames.webhookAttemptsSucceeded, MetricUnit.Count, count('delivered'));
  metrics.addMetric(metricNames.webhookAttemptsFailed, MetricUnit.Count, count('retrying') + count('failed'));
  metrics.addMetric(metricNames.webhookDeliveriesFailed, MetricUnit.Count, count('failed'));
  const keptIds = event.Records.filter((record) => ['kept', 'unreadable', 'broken'].includes(results.get(record) as string));
  return { batchItemFailures: keptIds.map((record) => ({ itemIdentifier: record.messageId })) };
}

/** The same Powertools wiring as the other functions: Lambda context on every log line, the X-Ray segment, one metrics flush. */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(logMetrics(metrics))
  .handler(sendWebhooksBatch);
