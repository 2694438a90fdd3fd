import { join } from 'node:path';
import { CfnOutput, Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { handlerPath, streamConsumers } from '../../functions/registry.ts';
import { env } from '../../shared/config.ts';
import { FEED_ENTITY } from '../../shared/store/feed.ts';
import { keys } from '../../shared/store/keys.ts';
import { deliverySettings } from '../../shared/webhooks/queues.ts';
import { bundlingOf, functionDefaults, functionEnvironment, onLeadingKeys, repositoryRoot } from '../api/operation-functions.ts';
import { serviceStack } from '../service-stack.ts';

export interface WebhookDeliveryProps {
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
}

const consumer = (name: string) => streamConsumers.find((entry) => entry.name === name) as (typeof streamConsumers)[number];

/**
 * The webhook outbox (docs/webhooks.md, "Delivery"; docs/decisions.md, "Webhook delivery"): the table's stream →
 * routeWebhookEvents (event INSERTs only) → one shared SQS queue of first attempts → sendWebhooks, which retries through
 * new delayed messages on a retries queue and visibility timeouts; a message its sender keeps failing on goes to a dead-letter queue
 * (redrive it back with SQS's StartMessageMoveTask), a stream batch the router keeps failing on to another.
 */
export class WebhookDelivery extends Construct {
  readonly router: NodejsFunction;
  readonly sender: NodejsFunction;
  readonly queue: sqs.Queue;
  readonly retries: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly routerFailures: sqs.Queue;

  constructor(scope: Construct, id: string, { table, bucket }: WebhookDeliveryProps) {
    super(scope, id);
    const queueDefaults = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) };
    this.deadLetters = new sqs.Queue(this, 'DeliveryDeadLetters', queueDefaults);
    this.routerFailures = new sqs.Queue(this, 'RouterFailures', queueDefaults);
    const deliveryQueueProps = {
      ...queueDefaults,
      visibilityTimeout: Duration.seconds(deliverySettings.visibilityTimeoutS),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: deliverySettings.maxReceiveCount },
    };
    // First attempts apart from what goes round again, each queue with its own sender concurrency: a failing
    // endpoint's retries never stand in front of another endpoint's first attempts (docs/decisions.md).
    this.queue = new sqs.Queue(this, 'Deliveries', deliveryQueueProps);
    this.retries = new sqs.Queue(this, 'Retries', deliveryQueueProps);
    const environment = { ...functionEnvironment(table, bucket), [env.webhookQueueUrl]: this.queue.queueUrl };

    const routerEntry = consumer('routeWebhookEvents');
    this.router = new NodejsFunction(this, routerEntry.name, {
      ...functionDefaults,
      entry: join(repositoryRoot, handlerPath(routerEntry.name)),
      description: `stream ${routerEntry.name}: ${routerEntry.summary}`,
      timeout: Duration.seconds(60),
      logGroup: new logs.LogGroup(this, `${routerEntry.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
      environment,
      bundling: bundlingOf(routerEntry.name),
    });
    this.router.addEventSource(
      new DynamoEventSource(table as dynamodb.Table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: deliverySettings.routerBatchSize,
        // only feed items a commit appends wake the router: the table's other writes (and copies) never invoke it
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: lambda.FilterRule.isEqual(FEED_ENTITY) }, copied: lambda.FilterRule.notExists() } },
          }),
        ],
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        // the stream keeps a record 24 h: retried that long, then named on the failures queue (docs/operations.md)
        retryAttempts: 10_000,
        onFailure: new SqsDlq(this.routerFailures),
      }),
    );
    // listWebhooks (the feed item's user's partition) is a Query; the rest is the queue.
    this.router.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [table.tableArn] }));
    this.queue.grantSendMessages(this.router);

    const senderEntry = consumer('sendWebhooks');
    this.sender = new NodejsFunction(this, senderEntry.name, {
      ...functionDefaults,
      entry: join(repositoryRoot, handlerPath(senderEntry.name)),
      description: `queue ${senderEntry.name}: ${senderEntry.summary}`,
      timeout: Duration.seconds(deliverySettings.senderTimeoutS),
      logGroup: new logs.LogGroup(this, `${senderEntry.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
      environment: { ...environment, [env.webhookRetryQueueUrl]: this.retries.queueUrl },
      bundling: bundlingOf(senderEntry.name),
    });
    for (const [queue, maxConcurrency] of [
      [this.queue, deliverySettings.senderConcurrency.deliveries],
      [this.retries, deliverySettings.senderConcurrency.retries],
    ] as const) {
      this.sender.addEventSource(
        new SqsEventSource(queue, { batchSize: deliverySettings.senderBatchSize, reportBatchItemFailures: true, maxConcurrency }),
      );
    }
    const slot = `${keys.webhookSlot(0, 0, 0).pk.split('#')[0]}#*`;
    const attempts = `${keys.deliveryAttempt(0, 0, '', '', 0).pk.split('#')[0]}#*#DELIVERIES`;
    this.sender.addToRolePolicy(
      // the endpoint, read afresh for each attempt, and its last success, failing since or disabling
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: onLeadingKeys(`${keys.webhook(0, 0).pk.split('#')[0]}#*`),
      }),
    );
    this.sender.addToRolePolicy(
      // the endpoint's concurrency slots (taken and freed) and the delivery log (one item per attempt)
      new iam.PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn], conditions: onLeadingKeys(slot, attempts) }),
    );
    this.sender.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:DeleteItem'], resources: [table.tableArn], conditions: onLeadingKeys(slot) }),
    );
    // the next attempt is a new message on the retries queue; a long wait hides the message it has (the event sources
    // add receive, visibility and delete on both queues)
    this.retries.grantSendMessages(this.sender);

    new CfnOutput(serviceStack(scope), 'WebhookDeadLettersQueueUrl', { value: this.deadLetters.queueUrl });
  }
}
