import { join } from 'node:path';
import { CfnOutput, Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { handlerPath, streamConsumers } from '../functions/registry.ts';
import { DETECTION_TABLE_ACTIONS } from '../shared/contracts/operation.ts';
import { bundlingOf, functionDefaults, functionEnvironment, repositoryRoot } from './operation-functions.ts';
import { configureGeocoding } from './providers.ts';
import { serviceStack } from './service-stack.ts';

/**
 * How the stream feeds processPositions, chosen from `npm run bench -- pipeline` (docs/cost.md, "Pipeline sizing"):
 * one batcher handles 1,900-6,200 positions/s at full batches, above a shard's 1,000 records/s, so parallelisation
 * stays at 1 (a second batcher per shard would only double a quiet fleet's invocations). Writes follow vehicle-batches,
 * not positions (5.9 write units per position with one position per vehicle and batch, 1.0 with six), so the window
 * is the devices' 30 s report interval: a third of a 10 s window's invocations and archive PUTs for the same writes,
 * and live data at most one report interval behind.
 */
export const pipelineSettings = {
  memoryMb: 1024,
  batchSize: 1000,
  batchingWindowS: 30,
  parallelizationFactor: 1,
  /** a runaway (a week's backlog replayed at once) must not take the table's whole write capacity */
  reservedConcurrency: 8,
  /** Kinesis on-demand streams start with 4 shards (4 MB/s, 4,000 records/s of writes) */
  initialShards: 4,
} as const;

export interface PositionsPipelineProps {
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
}

/**
 * Devices → Kinesis stream "positions" (on-demand, partition key = imei) → processPositions.
 * Batches are retried with bisection and partial-failure reporting; what still fails lands in an SQS queue.
 */
export class PositionsPipeline extends Construct {
  readonly stream: kinesis.Stream;
  readonly processor: NodejsFunction;
  readonly deadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, { table, bucket }: PositionsPipelineProps) {
    super(scope, id);
    const [consumer] = streamConsumers;
    this.stream = new kinesis.Stream(this, 'Positions', {
      streamMode: kinesis.StreamMode.ON_DEMAND,
      encryption: kinesis.StreamEncryption.MANAGED,
      retentionPeriod: Duration.days(7),
    });
    this.deadLetters = new sqs.Queue(this, 'FailedBatches', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.processor = new NodejsFunction(this, consumer.name, {
      ...functionDefaults,
      entry: join(repositoryRoot, handlerPath(consumer.name)),
      description: `stream ${consumer.name}: ${consumer.summary}`,
      memorySize: pipelineSettings.memoryMb,
      reservedConcurrentExecutions: pipelineSettings.reservedConcurrency,
      timeout: Duration.minutes(2),
      logGroup: new logs.LogGroup(this, `${consumer.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
      environment: functionEnvironment(table, bucket),
      bundling: bundlingOf('processPositions'),
    });
    configureGeocoding(this, this.processor);
    this.processor.addEventSource(
      new KinesisEventSource(this.stream, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        // Fewer, larger batches: DynamoDB writes scale with vehicles per batch, not with positions.
        batchSize: pipelineSettings.batchSize,
        maxBatchingWindow: Duration.seconds(pipelineSettings.batchingWindowS),
        parallelizationFactor: pipelineSettings.parallelizationFactor,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetters),
      }),
    );
    // What detection calls (no Scan, no stream reads), and whole-object puts of the archive (no tagging, retention or ACLs).
    table.grant(this.processor, ...DETECTION_TABLE_ACTIONS.map((action) => `dynamodb:${action}`));
    this.processor.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects('positions/*')] }),
    );

    new CfnOutput(serviceStack(scope), 'PositionsStreamName', { value: this.stream.streamName });
    new CfnOutput(serviceStack(scope), 'FailedBatchesQueueUrl', { value: this.deadLetters.queueUrl });
  }
}
