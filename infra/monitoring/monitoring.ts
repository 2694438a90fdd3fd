import { Annotations, Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { Operation } from '../../functions/registry.ts';
import { accessOf } from '../../shared/contracts/operation.ts';
import { metricNames } from '../../shared/metric-names.ts';
import { type PositionsPipeline, STREAM_CONTEXT, shardLimits } from '../positions/positions-pipeline.ts';
import { TELTONIKA_CONTEXT, type TeltonikaService, teltonikaSettings } from '../positions/teltonika-service.ts';
import { TABLE_OPERATIONS, type TableCapacity, tableCapacityAlarms } from '../table-capacity.ts';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.ts';
import { serviceMetric } from './service-metric.ts';

/** The CDK context value holding the address that receives every alarm (`cdk deploy -c alarmEmail=ops@example.com`). */
export const ALARM_EMAIL_CONTEXT = 'alarmEmail';

/** CloudWatch lets one alarm's metric math use at most 10 metrics, so a function group is alarmed in slices of 10. */
const METRICS_PER_ALARM = 10;

export interface MonitoringProps {
  api: apigateway.RestApi;
  /** every API operation's function, by registry entry */
  operationFunctions: readonly { operation: Operation; fn: lambda.IFunction }[];
  /** the function serving /api/docs and /api/openapi.json (read-only, outside the registry) */
  docsFunction: lambda.IFunction;
  /** the HTTP device entry points' functions (infra/positions/device-endpoints.ts) */
  deviceFunctions: readonly lambda.IFunction[];
  pipeline: PositionsPipeline;
  /** the quiet-vehicles check (infra/positions/quiet-vehicles.ts), watched with the pipeline it finishes */
  quietCheck: lambda.IFunction;
  teltonika: TeltonikaService;
  table: dynamodb.TableV2;
  /** the table's capacity mode (infra/table-capacity.ts): what its throttling alarms tell to do */
  tableCapacity: TableCapacity;
  webhooks: WebhookDelivery;
}

/**
 * Alarms on one SNS topic (each with a one-line reason: the runbook in docs/operations.md says what to do)
 * and one dashboard: traffic, latency per operation, errors, pipeline lag, DynamoDB capacity.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  private readonly action: SnsAction;

  constructor(
    scope: Construct,
    id: string,
    {
      api,
      operationFunctions,
      docsFunction,
      deviceFunctions,
      pipeline,
      quietCheck,
      teltonika,
      table,
      tableCapacity,
      webhooks,
    }: MonitoringProps,
  ) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Alarms', { displayName: 'fleet-tracking alarms', enforceSSL: true });
    this.action = new SnsAction(this.topic);
    const email = this.node.tryGetContext(ALARM_EMAIL_CONTEXT) as string | undefined;
    if (email) this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    else
      Annotations.of(this).addWarningV2(
        'fleet:no-alarm-email',
        `no alarm subscriber: deploy with -c ${ALARM_EMAIL_CONTEXT}=you@example.com`,
      );

    // API
    const apiRequests = api.metricCount({ period: Duration.minutes(5), statistic: 'Sum' });
    const api5xx = api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' });
    this.alarm('Api5xxRate', 'More than 1 % of API requests answered 5xx over 10 minutes: integrators are getting `internal error`.', {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
        usingMetrics: { requests: apiRequests, errors: api5xx },
        label: 'API 5xx (% of requests)',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 2,
    });

    // Lambda, per function group
    const groups: [string, lambda.IFunction[]][] = [
      ['read', [...operationFunctions.filter(({ operation }) => accessOf(operation) === 'read').map(({ fn }) => fn), docsFunction]],
      ['write', operationFunctions.filter(({ operation }) => accessOf(operation) === 'write').map(({ fn }) => fn)],
      ['pipeline', [pipeline.processor, quietCheck]],
      ['devices', [...deviceFunctions]],
      ['webhooks', [webhooks.router, webhooks.sender]],
    ];
    for (const [group, functions] of groups) {
      slices(functions, METRICS_PER_ALARM).forEach((slice, index, all) => {
        const name = all.length > 1 ? `${group}${index + 1}` : group;
        this.alarm(
          `LambdaErrors-${name}`,
          `A ${group} function crashed or timed out (Lambda Errors ≥ 1 in 5 minutes): requests got 502/500 or batches are retried.`,
          {
            metric: sumOf(
              slice.map((fn) => fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' })),
              `${name} errors`,
            ),
            threshold: 1,
          },
        );
        this.alarm(
          `LambdaThrottles-${name}`,
          `A ${group} function was throttled (Lambda Throttles ≥ 1 in 5 minutes): concurrency is exhausted, callers got 429/502.`,
          {
            metric: sumOf(
              slice.map((fn) => fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' })),
              `${name} throttles`,
            ),
            threshold: 1,
          },
        );
      });
    }

    // Positions pipeline
    const iteratorAge = pipeline.processor.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' });
    this.alarm('PipelineIteratorAge', 'processPositions is more than 5 minutes behind the stream for 5 minutes: live data is stale.', {
      metric: iteratorAge,
      threshold: 5 * 60 * 1000,
      evaluationPeriods: 5,
    });
    const received = serviceMetric(metricNames.positionsReceived);
    const ratioOf = (metricName: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: 'IF(received >= 100, 100 * part / received, 0)',
        usingMetrics: { received, part: serviceMetric(metricName) },
        label,
        period: Duration.minutes(5),
      });
    this.alarm(
      'PositionsRejected',
      'More than 5 % of positions were rejected (malformed or unknown IMEI) for 15 minutes: a device or integration is misconfigured.',
      {
        metric: ratioOf(metricNames.positionsRejected, 'rejected (% of received)'),
        threshold: 5,
        evaluationPeriods: 3,
      },
    );
    this.alarm(
      'PositionsTooLate',
      'More than 5 % of positions arrived too late to be applied for 15 minutes: devices are buffering or the stream is backed up.',
      {
        metric: ratioOf(metricNames.positionsTooLate, 'too late (% of received)'),
        threshold: 5,
        evaluationPeriods: 3,
      },
    );
    this.alarm(
      'PositionsFailed',
      'Positions failed to be written in three 5-minute periods in a row: ' +
        'retries are not clearing, batches may reach the failed-batches queue.',
      {
        metric: serviceMetric(metricNames.positionsFailed),
        threshold: 1,
        evaluationPeriods: 3,
      },
    );
    this.alarm(
      'FailedBatchesQueue',
      'The failed-batches queue holds a batch: positions were dropped after every retry and must be reprocessed.',
      {
        metric: pipeline.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 1,
      },
    );

    this.streamCapacityAlarm(pipeline);

    this.teltonikaAlarms(teltonika);

    // DynamoDB
    for (const { id, reason, ...alarm } of tableCapacityAlarms(table, tableCapacity)) this.alarm(id, reason, alarm);
    this.alarm(
      'TableSystemErrors',
      'DynamoDB answered with internal errors (HTTP 500) in 5 minutes: an AWS-side fault, check the AWS Health Dashboard.',
      {
        metric: table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: Duration.minutes(5) }),
        threshold: 1,
      },
    );

    this.dashboard = this.makeDashboard(
      api,
      operationFunctions.map(({ operation }) => operation.name),
      groups,
      iteratorAge,
      table,
    );
    this.dashboard.addWidgets(...this.teltonikaWidgets(teltonika));
    this.dashboard.addWidgets(...this.webhookMonitoring(webhooks));
  }

  /** Webhook delivery (docs/webhooks.md): deliveries given up on, senders falling behind, endpoints failing. */
  private webhookMonitoring(webhooks: WebhookDelivery): cloudwatch.IWidget[] {
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Maximum' };
    const deadLetters = webhooks.deadLetters.metricApproximateNumberOfMessagesVisible(fiveMinutes);
    const routerFailures = webhooks.routerFailures.metricApproximateNumberOfMessagesVisible(fiveMinutes);
    const oldest = webhooks.queue.metricApproximateAgeOfOldestMessage(fiveMinutes);
    const oldestRetry = webhooks.retries.metricApproximateAgeOfOldestMessage(fiveMinutes);
    const lag = serviceMetric(metricNames.webhookDeliveryLag, { statistic: 'Maximum' });
    this.alarm(
      'WebhookDeadLetters',
      'A webhook delivery message broke its sender 10 times and was dead-lettered: fix the cause, then redrive the queue.',
      { metric: deadLetters, threshold: 1 },
    );
    this.alarm(
      'WebhookRouterFailures',
      'The webhook router gave up on a stream batch: those events were not queued; route them again (docs/operations.md).',
      { metric: routerFailures, threshold: 1 },
    );
    // A first attempt is due at once; it is received again only after a broken attempt's visibility timeout (3 min,
    // ten receives at most): an hour old means the senders are not taking the queue.
    this.alarm('WebhookOldestMessage', 'A first webhook attempt is older than an hour: messages are not being taken from the queue.', {
      metric: oldest,
      threshold: 3600,
    });
    // A retry's long wait keeps its message up to 15 min delayed plus 24 h hidden: older than that is a stuck message.
    this.alarm('WebhookOldestRetry', 'A webhook retry message is older than 26 h: messages are not being taken from the queue.', {
      metric: oldestRetry,
      threshold: 26 * 3600,
    });
    this.alarm(
      'WebhookDeliveryLag',
      'Webhook attempts start more than 5 minutes after they are due for 15 minutes: the senders fall behind.',
      {
        metric: lag,
        threshold: 300,
        evaluationPeriods: 3,
      },
    );
    const attempts = {
      ok: serviceMetric(metricNames.webhookAttemptsSucceeded),
      failed: serviceMetric(metricNames.webhookAttemptsFailed),
    };
    this.alarm(
      'WebhookFailureRate',
      'More than half of 100+ webhook attempts failed in 15 minutes: endpoints are down, or the sender is broken.',
      {
        metric: new cloudwatch.MathExpression({
          expression: 'IF(ok + failed >= 100, 100 * failed / (ok + failed), 0)',
          usingMetrics: attempts,
          label: 'webhook attempts failed (%)',
          period: Duration.minutes(15),
        }),
        threshold: 50,
      },
    );
    return [
      new cloudwatch.GraphWidget({
        title: 'Webhooks: attempts succeeded and failed, deliveries given up',
        left: [attempts.ok, attempts.failed, serviceMetric(metricNames.webhookDeliveriesFailed)],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Webhooks: delivery lag (s), oldest first attempt and retry (s), dead letters',
        left: [lag, oldest, oldestRetry],
        right: [deadLetters, routerFailures],
        width: 12,
      }),
    ];
  }

  /**
   * The Teltonika listener (docs/devices.md): units refused and guessing bursts, corrupt packets, jammed units, records
   * the stream did not take, no task up.
   */
  private teltonikaAlarms(teltonika: TeltonikaService): void {
    /** each counter's alarm: its metric, the count that raises it in a 5-minute period, and in how many periods in a row */
    const counterAlarms: Array<[id: string, metric: string, threshold: number, evaluationPeriods: number, reason: string]> = [
      [
        'TeltonikaHandshakesRejected',
        metricNames.teltonikaHandshakesRejected,
        20,
        3,
        'At least 20 Teltonika handshakes a 5 minutes were refused for 15 minutes: units report an IMEI no vehicle has ' +
          '(register it with `admin vehicle add`), or something is scanning the device port.',
      ],
      [
        'TeltonikaHandshakeRefusalBurst',
        metricNames.teltonikaHandshakesRejected,
        300,
        1,
        'At least 300 Teltonika handshakes were refused in 5 minutes: someone is guessing IMEIs (the log names each ' +
          'remote address; sources past their budget are already held), or a fleet was unregistered by mistake.',
      ],
      [
        'TeltonikaRecordsDeadLettered',
        metricNames.teltonikaRecordsDeadLettered,
        1,
        1,
        'Teltonika records of CRC-valid packets could not be used (a jammed unit: a time like 2^60 ms, coordinates out of ' +
          'range, a packet unreadable inside): acknowledged so the unit moves on, and in positions/dead-letter/ with the reason.',
      ],
      [
        'TeltonikaCrcFailures',
        metricNames.teltonikaCrcFailures,
        10,
        2,
        'At least 10 Teltonika packets in 5 minutes failed their CRC twice in a row: corrupt links or a unit misconfigured; ' +
          'the units resend, but if this lasts their memory fills.',
      ],
      [
        'TeltonikaRecordsNotAcked',
        metricNames.teltonikaRecordsNotAcked,
        1,
        2,
        'Teltonika records were not acknowledged because the positions stream did not take them, in two 5-minute periods: ' +
          'the units keep and resend them, but the stream or the task role needs a look.',
      ],
    ];
    for (const [id, metric, threshold, evaluationPeriods, reason] of counterAlarms)
      this.alarm(id, reason, { metric: teltonika.metric(metric), threshold, evaluationPeriods });
    this.alarm('TeltonikaNoHealthyTask', 'No Teltonika listener task was up for 3 minutes: units cannot connect.', {
      ...this.tasksUp(teltonika),
      threshold: 1,
      evaluationPeriods: 3,
    });
    if (teltonika.settings.mode === 'single-task') this.singleTaskCapacityAlarm(teltonika);
  }

  /**
   * A single listener task is sized for the fleet (docs/devices.md, "The listener's footprint"): this says when the fleet
   * outgrew it, as PositionsStreamNearCapacity does for the stream, at 80 % of the connections the load-balanced mode
   * keeps a task at, or of its CPU.
   */
  private singleTaskCapacityAlarm(teltonika: TeltonikaService): void {
    const { connectionsPerTask } = teltonikaSettings;
    const period = Duration.minutes(5);
    this.alarm(
      'TeltonikaSingleTaskNearCapacity',
      `The single Teltonika listener task ran above 80 % of ${connectionsPerTask} connections or of its CPU for 15 minutes: ` +
        `deploy with -c ${TELTONIKA_CONTEXT.mode}=load-balanced (its units then connect to the load balancer's name, ` +
        'docs/devices.md, "The listener\'s footprint").',
      {
        metric: new cloudwatch.MathExpression({
          expression: `MAX([100 * connections / ${connectionsPerTask}, cpu])`,
          usingMetrics: {
            connections: teltonika.metric(metricNames.teltonikaOpenConnections, 'Maximum', period),
            cpu: teltonika.service.metricCpuUtilization({ period, statistic: 'Maximum' }),
          },
          label: 'Teltonika task: % of its connections or CPU',
          period,
        }),
        threshold: 80,
        evaluationPeriods: 3,
      },
    );
  }

  /**
   * 1 a minute while no listener task is up. Load-balanced: the balancer's healthy targets. Single-task: the task's own
   * minute report (it publishes its open connections every minute, zero or not), so a minute without one counts.
   */
  private tasksUp(teltonika: TeltonikaService): { metric: cloudwatch.IMetric; treatMissingData?: cloudwatch.TreatMissingData } {
    const minute = { period: Duration.minutes(1), statistic: 'Minimum' };
    if (teltonika.targetGroup)
      return {
        metric: new cloudwatch.MathExpression({
          expression: 'IF(healthy < 1, 1, 0)',
          usingMetrics: { healthy: teltonika.targetGroup.metrics.healthyHostCount(minute) },
          label: 'no healthy Teltonika task',
          period: Duration.minutes(1),
        }),
      };
    return {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(reports < 1, 1, 0)',
        usingMetrics: { reports: teltonika.metric(metricNames.teltonikaOpenConnections, 'SampleCount', Duration.minutes(1)) },
        label: 'no Teltonika task reporting',
        period: Duration.minutes(1),
      }),
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    };
  }

  private teltonikaWidgets(teltonika: TeltonikaService): cloudwatch.IWidget[] {
    const oneMinute = { period: Duration.minutes(1), statistic: 'Maximum' };
    return [
      new cloudwatch.GraphWidget({
        title: 'Teltonika: open connections, records acknowledged, not acknowledged and dead-lettered',
        left: [teltonika.metric(metricNames.teltonikaOpenConnections, 'Sum', Duration.minutes(1))],
        right: [metricNames.teltonikaRecordsAcked, metricNames.teltonikaRecordsNotAcked, metricNames.teltonikaRecordsDeadLettered].map(
          (name) => teltonika.metric(name),
        ),
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Teltonika: refused and held handshakes, refused connections, CRC failures, malformed packets; task CPU %',
        left: [
          metricNames.teltonikaHandshakesRejected,
          metricNames.teltonikaHandshakesHeld,
          metricNames.teltonikaConnectionsRefused,
          metricNames.teltonikaCrcFailures,
          metricNames.teltonikaMalformedPackets,
        ].map((name) => teltonika.metric(name)),
        right: [teltonika.service.metricCpuUtilization(oneMinute)],
        width: 12,
      }),
    ];
  }

  /**
   * The positions stream near what it was sized for: writes throttled in any mode, and on a provisioned stream its
   * records or bytes over 80 % of its shards' limits for 15 minutes. The answer is in the description, so the page says it.
   */
  private streamCapacityAlarm({ stream, streamSettings: { mode, shards } }: PositionsPipeline): void {
    const period = Duration.minutes(5);
    const seconds = period.toSeconds();
    const throttled = stream.metricWriteProvisionedThroughputExceeded({ period, statistic: 'Sum' });
    const usingMetrics: Record<string, cloudwatch.IMetric> =
      mode === 'provisioned'
        ? {
            throttled,
            records: stream.metricIncomingRecords({ period, statistic: 'Sum' }),
            bytes: stream.metricIncomingBytes({ period, statistic: 'Sum' }),
          }
        : { throttled };
    const capacity = { records: shards * shardLimits.recordsPerSecond * seconds, bytes: shards * shardLimits.bytesPerSecond * seconds };
    const used = mode === 'provisioned' ? `, 100 * records / ${capacity.records}, 100 * bytes / ${capacity.bytes}` : '';
    const remedy =
      mode === 'provisioned'
        ? `add shards (cdk deploy -c ${STREAM_CONTEXT.shards}=${shards * 2}) or switch to -c ${STREAM_CONTEXT.mode}=on-demand`
        : 'an on-demand stream doubles its capacity by itself within minutes; sustained, see docs/cost.md';
    this.alarm(
      'PositionsStreamNearCapacity',
      `The positions stream throttled writes or ran above 80 % of its ${shards} shard(s) for 15 minutes: ` +
        `devices get 503 and resend; ${remedy}.`,
      {
        metric: new cloudwatch.MathExpression({
          expression: `MAX([IF(throttled > 0, 100, 0)${used}])`,
          usingMetrics,
          label: 'positions stream: % of its write capacity (100 when throttled)',
          period,
        }),
        threshold: 80,
        evaluationPeriods: 3,
      },
    );
  }

  private alarm(
    id: string,
    reason: string,
    props: { metric: cloudwatch.IMetric; threshold: number; evaluationPeriods?: number; treatMissingData?: cloudwatch.TreatMissingData },
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: reason,
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: props.treatMissingData ?? cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }

  private makeDashboard(
    api: apigateway.RestApi,
    operationNames: readonly string[],
    groups: [string, lambda.IFunction[]][],
    iteratorAge: cloudwatch.IMetric,
    table: dynamodb.TableV2,
  ): cloudwatch.Dashboard {
    const latency = (statistic: string) =>
      operationNames.map((operation) =>
        serviceMetric(metricNames.latency, { dimensions: { operation }, statistic }).with({ label: operation }),
      );
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    return new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(6),
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Traffic: API requests and positions received',
            left: [api.metricCount(fiveMinutes)],
            right: [serviceMetric(metricNames.positionsReceived)],
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'Errors: API 4xx/5xx and Lambda errors per group',
            left: [api.metricClientError(fiveMinutes), api.metricServerError(fiveMinutes)],
            right: groups.map(([group, functions]) =>
              sumOf(
                functions.map((fn) => fn.metricErrors(fiveMinutes)),
                `${group} Lambda errors`,
                false,
              ),
            ),
            width: 12,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Latency p50 per operation (ms)',
            left: latency('p50'),
            width: 12,
            legendPosition: cloudwatch.LegendPosition.RIGHT,
          }),
          new cloudwatch.GraphWidget({
            title: 'Latency p99 per operation (ms)',
            left: latency('p99'),
            width: 12,
            legendPosition: cloudwatch.LegendPosition.RIGHT,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Pipeline lag: iterator age (ms) and positions rejected, too late, failed',
            left: [iteratorAge],
            right: [metricNames.positionsRejected, metricNames.positionsTooLate, metricNames.positionsFailed].map((name) =>
              serviceMetric(name),
            ),
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'DynamoDB capacity consumed and throttled requests',
            left: [table.metricConsumedReadCapacityUnits(fiveMinutes), table.metricConsumedWriteCapacityUnits(fiveMinutes)],
            right: [table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, ...fiveMinutes })],
            width: 12,
          }),
        ],
      ],
    });
  }
}

function slices<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** The sum of up to 10 metrics as one alarmable expression (graphs take more). */
function sumOf(metrics: readonly cloudwatch.IMetric[], label: string, forAlarm = true): cloudwatch.IMetric {
  if (forAlarm && metrics.length > METRICS_PER_ALARM) throw new Error(`an alarm may use at most ${METRICS_PER_ALARM} metrics`);
  // Ids are unique per graph, and several sums share the errors graph.
  const idPrefix = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`${idPrefix}${index}`, metric]));
  return new cloudwatch.MathExpression({
    expression: Object.keys(usingMetrics).join(' + '),
    usingMetrics,
    label,
    period: Duration.minutes(5),
  });
}
