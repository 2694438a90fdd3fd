import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { batchFunction } from '../../shared/background-function.ts';
import { logger, MetricUnit, metricNames, metrics } from '../../shared/telemetry.ts';
import { batchRouter, routableEvent } from '../../shared/webhooks/router.ts';

/**
 * The table's stream → one queued delivery per webhook of each new event (docs/webhooks.md, "Delivery"). Records are
 * routed in stream order; the first that cannot be queued is reported, so Lambda resumes from it and nothing after
 * it is skipped. Only event INSERTs reach this function (the event source's filter), other items are ignored anyway.
 */
async function routeWebhookEventsBatch(event: DynamoDBStreamEvent): Promise<string[]> {
  const router = batchRouter();
  let queued = 0;
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const routable =
      record.eventName === 'INSERT' && image ? routableEvent(unmarshall(image as Record<string, AttributeValue>)) : undefined;
    if (!routable) continue;
    try {
      queued += await router.route(routable);
    } catch (error) {
      logger.error('an event could not be routed; the batch resumes from it', { error, eventId: routable.event_id });
      metrics.addMetric(metricNames.webhookDeliveriesQueued, MetricUnit.Count, queued);
      return [record.dynamodb?.SequenceNumber ?? ''];
    }
  }
  metrics.addMetric(metricNames.webhookDeliveriesQueued, MetricUnit.Count, queued);
  return [];
}

export const handler = batchFunction('routeWebhookEvents', routeWebhookEventsBatch);
