import type { Context, SQSEvent } from 'aws-lambda';
import { batchFunction } from '../../shared/background-function.ts';
import { parseQueuedDelivery } from '../../shared/domain/webhooks/delivery.ts';
import { MetricUnit, metricNames, metrics } from '../../shared/telemetry.ts';
import { deliverBatch, LEFT_IN_QUEUE } from '../../shared/webhooks/sender.ts';

/**
 * A queue's batch → one attempt per message, the batch's webhooks at once, all within the invocation's time left
 * (docs/webhooks.md, "Delivery"). Each message has its own outcome: one reported failed stays in the queue (one kept
 * for its time, one that is not ours, which reaches the dead-letter queue after its receives, or one whose attempt
 * broke on AWS); every other is deleted, however long another message of the batch took.
 */
async function sendWebhooksBatch(event: SQSEvent, context: Context): Promise<string[]> {
  const invokedAt = Date.now();
  const results = await deliverBatch(event.Records, { remainingMs: context.getRemainingTimeInMillis() });
  const lags = event.Records.map((record) => parseQueuedDelivery(record.body)?.due_at)
    .filter((due): due is string => due !== undefined)
    .map((due) => Math.max(0, (invokedAt - Date.parse(due)) / 1000));
  if (lags.length > 0) metrics.addMetric(metricNames.webhookDeliveryLag, MetricUnit.Seconds, Math.max(...lags));
  const count = (wanted: string): number => [...results.values()].filter((result) => result === wanted).length;
  metrics.addMetric(metricNames.webhookAttemptsSucceeded, MetricUnit.Count, count('delivered'));
  metrics.addMetric(metricNames.webhookAttemptsFailed, MetricUnit.Count, count('retrying') + count('failed'));
  metrics.addMetric(metricNames.webhookDeliveriesFailed, MetricUnit.Count, count('failed'));
  const leftInQueue = event.Records.filter((record) => LEFT_IN_QUEUE.has(results.get(record) ?? 'broken'));
  return leftInQueue.map((record) => record.messageId);
}

export const handler = batchFunction('sendWebhooks', sendWebhooksBatch);
