import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { FAULTS } from '../../shared/domain/tracking/faults.ts';
import { faultMetricNames } from '../../shared/metric-names.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { logger, MetricUnit, metricNames, metrics, tracer } from '../../shared/telemetry.ts';

/**
 * Kinesis → the positions pipeline. Bad records never block the batch (they go to the dead-letter prefix);
 * a vehicle whose writes failed reports its records as failures, so Lambda retries from there (bisecting as needed).
 */
async function processPositionsBatch(event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse> {
  const records = event.Records.map((record) => ({
    id: record.kinesis.sequenceNumber,
    data: Buffer.from(record.kinesis.data, 'base64').toString('utf8'),
    // seconds, with milliseconds: lateness and the future are measured from here
    arrivedAt: Math.round(record.kinesis.approximateArrivalTimestamp * 1000),
  }));
  const first = event.Records[0]?.kinesis.sequenceNumber ?? 'empty';
  const last = event.Records.at(-1)?.kinesis.sequenceNumber ?? 'empty';
  const shard = event.Records[0]?.eventID.split(':')[0] ?? 'shard';
  logger.appendKeys({ operation: 'processPositions' });
  tracer.putAnnotation('operation', 'processPositions');
  const outcome = await processPositions(records, { batchName: `${shard}-${first}-${last}` });

  metrics.addMetric(metricNames.positionsReceived, MetricUnit.Count, outcome.records);
  metrics.addMetric(metricNames.positionsRejected, MetricUnit.Count, outcome.rejected.length);
  metrics.addMetric(metricNames.positionsTooLate, MetricUnit.Count, outcome.tooLate);
  metrics.addMetric(metricNames.fuelFillsKeptForSlip, MetricUnit.Count, outcome.fillsKeptForSlip);
  metrics.addMetric(metricNames.tripsDetected, MetricUnit.Count, outcome.trips);
  metrics.addMetric(metricNames.fuelFillsDetected, MetricUnit.Count, outcome.fills);
  metrics.addMetric(metricNames.positionsFailed, MetricUnit.Count, outcome.failedIds.length);
  for (const fault of FAULTS) metrics.addMetric(faultMetricNames[fault], MetricUnit.Count, outcome.faults[fault] ?? 0);

  return { batchItemFailures: outcome.failedIds.map((itemIdentifier) => ({ itemIdentifier })) };
}

/** The same Powertools wiring as the API chain: Lambda context on every log line, the X-Ray segment, one metrics flush. */
export const handler = middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(captureLambdaHandler(tracer, { captureResponse: false }))
  .use(logMetrics(metrics, { captureColdStartMetric: true }))
  .handler(processPositionsBatch);
