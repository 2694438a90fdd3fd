import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger, MetricUnit, metricNames, metrics, tracer } from '../../shared/telemetry.ts';
import { batchRouter, routableEvent } from '../../shared/webhooks/router.ts';

/**
 * The table's stream → one queued delivery per endpoint of each new event (docs/webhooks.md, "Delivery"). Records are
 * routed in stream order; the first that cannot be queued is reported, so Lambda resumes from it and nothing after
 * it is skipped. Only event INSERTs reach this function (the event source's filter), other items are ignored anyway.
 */
async function routeWebhookEventsBatch(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  logger.appendKeys({ operation: 'routeWebhookEvents' });
  tracer.putAnnotation('operation', 'routeWebhookEvents');
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
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  metrics.addMetric(metricNames.webhookDeliveriesQueued, MetricUnit.Count, queued);
  return { batchItemFailures: [] };
}

/** The same Powertools wiring as the other functions: Lambda context on every log line, the X-Ray segment, one metrics flush. */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(logMetrics(metrics))
  .handler(routeWebhookEventsBatch);
