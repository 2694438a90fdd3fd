import type { KinesisStreamEvent } from 'aws-lambda';
import { batchFunction } from '../../shared/background-function.ts';
import { FAULTS } from '../../shared/domain/tracking/faults.ts';
import { faultMetricNames } from '../../shared/metric-names.ts';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { MetricUnit, metricNames, metrics } from '../../shared/telemetry.ts';

/**
 * Kinesis → the positions pipeline. Bad records never block the batch (they go to the dead-letter prefix);
 * a vehicle whose writes failed reports its records as failures, so Lambda retries from there (bisecting as needed).
 */
async function processPositionsBatch(event: KinesisStreamEvent): Promise<readonly string[]> {
  const records = event.Records.map((record) => ({
    id: record.kinesis.sequenceNumber,
    data: Buffer.from(record.kinesis.data, 'base64').toString('utf8'),
    // seconds, with milliseconds: lateness and the future are measured from here
    arrivedAt: Math.round(record.kinesis.approximateArrivalTimestamp * 1000),
  }));
  const first = event.Records[0]?.kinesis.sequenceNumber ?? 'empty';
  const last = event.Records.at(-1)?.kinesis.sequenceNumber ?? 'empty';
  const shard = event.Records[0]?.eventID.split(':')[0] ?? 'shard';
  const outcome = await processPositions(records, { batchName: `${shard}-${first}-${last}` });

  metrics.addMetric(metricNames.positionsReceived, MetricUnit.Count, outcome.records);
  metrics.addMetric(metricNames.positionsRejected, MetricUnit.Count, outcome.rejected.length);
  metrics.addMetric(metricNames.positionsTooLate, MetricUnit.Count, outcome.tooLate);
  metrics.addMetric(metricNames.fuelFillsKeptForSlip, MetricUnit.Count, outcome.fillsKeptForSlip);
  metrics.addMetric(metricNames.tripsDetected, MetricUnit.Count, outcome.trips);
  metrics.addMetric(metricNames.fuelFillsDetected, MetricUnit.Count, outcome.fills);
  metrics.addMetric(metricNames.positionsFailed, MetricUnit.Count, outcome.failedIds.length);
  for (const fault of FAULTS) metrics.addMetric(faultMetricNames[fault], MetricUnit.Count, outcome.faults[fault] ?? 0);

  return outcome.failedIds;
}

export const handler = batchFunction('processPositions', processPositionsBatch);
