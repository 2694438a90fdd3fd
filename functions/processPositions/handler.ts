import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { processPositions } from '../../shared/pipeline/process-positions.ts';

const metrics = new Metrics({ namespace: 'FleetTracking', serviceName: 'fleet-tracking' });

/**
 * Kinesis → the positions pipeline. Bad records never block the batch (they go to the dead-letter prefix);
 * a vehicle whose writes failed reports its records as failures, so Lambda retries from there (bisecting as needed).
 */
export async function handler(event: KinesisStreamEvent): Promise<KinesisStreamBatchResponse> {
  const records = event.Records.map((record) => ({
    id: record.kinesis.sequenceNumber,
    data: Buffer.from(record.kinesis.data, 'base64').toString('utf8'),
  }));
  const first = event.Records[0]?.kinesis.sequenceNumber ?? 'empty';
  const last = event.Records.at(-1)?.kinesis.sequenceNumber ?? 'empty';
  const shard = event.Records[0]?.eventID.split(':')[0] ?? 'shard';
  const outcome = await processPositions(records, { batchName: `${shard}-${first}-${last}` });

  metrics.addMetric('positionsReceived', MetricUnit.Count, outcome.records);
  metrics.addMetric('positionsRejected', MetricUnit.Count, outcome.rejected.length);
  metrics.addMetric('positionsTooLate', MetricUnit.Count, outcome.tooLate);
  metrics.addMetric('fuelFillsKeptForSlip', MetricUnit.Count, outcome.fillsKeptForSlip);
  metrics.addMetric('tripsDetected', MetricUnit.Count, outcome.trips);
  metrics.addMetric('fuelFillsDetected', MetricUnit.Count, outcome.fills);
  metrics.addMetric('positionsFailed', MetricUnit.Count, outcome.failedIds.length);
  metrics.publishStoredMetrics();

  return { batchItemFailures: outcome.failedIds.map((itemIdentifier) => ({ itemIdentifier })) };
}
