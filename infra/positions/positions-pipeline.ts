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
import { handlerPath, streamConsumers } from '../../functions/registry.ts';
import { DETECTION_TABLE_ACTIONS } from '../../shared/contracts/operation.ts';
import { bundlingOf, functionDefaults, functionEnvironment, repositoryRoot } from '../api/operation-functions.ts';
import { configureGeocoding } from '../api/providers.ts';
import { serviceStack } from '../service-stack.ts';

/**
 * How the stream feeds processPositions, chosen from `npm run bench -- pipeline` (docs/cost.md, "Pipeline sizing"):
 * one batcher handles 1,900-6,000 positions/s at full batches, above a shard's 1,000 records/s, so parallelisation
 * stays at 1 (a second batcher per shard would only double a quiet fleet's invocations). Writes follow vehicle-batches,
 * not positions, so the window is the devices' 30 s report interval: a third of a 10 s window's invocations and archive
 * PUTs for the same writes, and live data at most one report interval behind. A batch is at most one shard-second of
 * records, so a full shard's backlog drains in full batches.
 */
export const pipelineSettings = {
  memoryMb: 1024,
  batchSize: 1000,
  batchingWindowS: 30,
  parallelizationFactor: 1,
} as const;

/** What one shard takes (Kinesis quotas): writes past either are throttled. */
export const shardLimits = { recordsPerSecond: 1000, bytesPerSecond: 1024 * 1024 } as const;

/** The cdk context keys of the stream's deployment settings (`cdk deploy -c positionsStreamMode=on-demand`). */
export const STREAM_CONTEXT = {
  mode: 'positionsStreamMode',
  shards: 'positionsStreamShards',
  retentionHours: 'positionsStreamRetentionHours',
} as const;

/**
 * The positions stream's capacity (docs/cost.md, "Sizing the stream"). Provisioned by default: one shard carries
 * about 24,000 vehicles reporting every 30 s at $0.015 an hour, where on-demand bills $0.04 an hour for a stream of
 * any size. On-demand is for fleets whose traffic swings past what resharding by hand can follow.
 */
export interface StreamSettings {
  mode: 'provisioned' | 'on-demand';
  /** provisioned: the shards; on-demand: the 4 it starts with (it scales by itself) */
  shards: number;
  /** 24 is included in the shard price; longer retention is billed per shard-hour (provisioned) or GB-month (on-demand) */
  retentionHours: number;
}

export const streamDefaults: StreamSettings = { mode: 'provisioned', shards: 1, retentionHours: 24 };
const ON_DEMAND_SHARDS = 4;
/** a runaway on an on-demand stream (a week's backlog replayed at once) must not take the table's whole write capacity */
const ON_DEMAND_RESERVED_CONCURRENCY = 8;

/** The stream's settings from the cdk context, checked: a typo fails the synth rather than deploying a default. */
export function streamSettingsOf(scope: Construct): StreamSettings {
  const context = (key: string): unknown => scope.node.tryGetContext(key);
  const mode = context(STREAM_CONTEXT.mode) ?? streamDefaults.mode;
  if (mode !== 'provisioned' && mode !== 'on-demand') throw new Error(`${STREAM_CONTEXT.mode} must be provisioned or on-demand`);
  const shards = Number(context(STREAM_CONTEXT.shards) ?? streamDefaults.shards);
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`${STREAM_CONTEXT.shards} must be a whole number of shards`);
  if (mode === 'on-demand' && context(STREAM_CONTEXT.shards) !== undefined)
    throw new Error(`${STREAM_CONTEXT.shards} applies to a provisioned stream; an on-demand one scales by itself`);
  const retentionHours = Number(context(STREAM_CONTEXT.retentionHours) ?? streamDefaults.retentionHours);
  if (!Number.isInteger(retentionHours) || retentionHours < 24 || retentionHours > 8760)
    throw new Error(`${STREAM_CONTEXT.retentionHours} must be whole hours from 24 to 8760`);
  return { mode, shards: mode === 'on-demand' ? ON_DEMAND_SHARDS : shards, retentionHours };
}

/**
 * The batchers the stream can keep busy at once, reserved for processPositions: a provisioned stream runs one per shard
 * and factor, no more; an on-demand stream's shards grow by themselves, so a cap stands in.
 */
export const reservedConcurrencyFor = (stream: StreamSettings): number =>
  stream.mode === 'provisioned' ? stream.shards * pipelineSettings.parallelizationFactor : ON_DEMAND_RESERVED_CONCURRENCY;

export interface PositionsPipelineProps {
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
}

/**
 * Devices → Kinesis stream "positions" (provisioned or on-demand, partition key = imei) → processPositions.
 * Batches are retried with bisection and partial-failure reporting; what still fails lands in an SQS queue.
 */
export class PositionsPipeline extends Construct {
  readonly stream: kinesis.Stream;
  readonly processor: NodejsFunction;
  readonly deadLetters: sqs.Queue;
  readonly streamSettings: StreamSettings;

  constructor(scope: Construct, id: string, { table, bucket }: PositionsPipelineProps) {
    super(scope, id);
    const [consumer] = streamConsumers;
    this.streamSettings = streamSettingsOf(this);
    const { mode, shards, retentionHours } = this.streamSettings;
    this.stream = new kinesis.Stream(this, 'Positions', {
      ...(mode === 'provisioned'
        ? { streamMode: kinesis.StreamMode.PROVISIONED, shardCount: shards }
        : { streamMode: kinesis.StreamMode.ON_DEMAND }),
      encryption: kinesis.StreamEncryption.MANAGED,
      // The raw archive (S3) holds every batch before it is processed: the stream need not keep more than its included day.
      retentionPeriod: Duration.hours(retentionHours),
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
      reservedConcurrentExecutions: reservedConcurrencyFor(this.streamSettings),
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
