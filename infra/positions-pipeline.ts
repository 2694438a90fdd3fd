import { join } from 'node:path';
import { CfnOutput, Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { handlerPath, streamConsumers } from '../shared/operations.ts';
import { functionDefaults, functionEnvironment, repositoryRoot } from './operation-functions.ts';

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
      memorySize: 1024,
      timeout: Duration.minutes(2),
      logGroup: new logs.LogGroup(this, `${consumer.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
      environment: functionEnvironment(table, bucket),
    });
    this.processor.addEventSource(
      new KinesisEventSource(this.stream, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        // Fewer, larger batches: DynamoDB writes scale with vehicles per batch, not with positions.
        batchSize: 1000,
        maxBatchingWindow: Duration.seconds(10),
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetters),
      }),
    );
    table.grantReadWriteData(this.processor);
    bucket.grantPut(this.processor, 'positions/*');

    new CfnOutput(scope, 'PositionsStreamName', { value: this.stream.streamName });
    new CfnOutput(scope, 'FailedBatchesQueueUrl', { value: this.deadLetters.queueUrl });
  }
}
