/**
 * The table's capacity mode, a deployment setting like the stream's (docs/cost.md, "Sizing the table"). On-demand
 * by default: no fixed fee and no throttling at any traffic shape, which a small or new fleet wants. A fleet whose
 * devices report around the clock is steady traffic, which provisioned capacity with auto scaling carries for less
 * than half of what on-demand bills the same units (`cdk deploy -c tableCapacityMode=provisioned`).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

/** The cdk context keys of the table's deployment settings. */
export const TABLE_CONTEXT = {
  mode: 'tableCapacityMode',
  maxReadCapacity: 'tableMaxReadCapacity',
  maxWriteCapacity: 'tableMaxWriteCapacity',
} as const;

export interface TableCapacity {
  mode: 'on-demand' | 'provisioned';
  /** provisioned: the most auto scaling may set, per second, for the table and for each index */
  maxReadCapacity: number;
  maxWriteCapacity: number;
}

export const tableCapacityDefaults: TableCapacity = { mode: 'on-demand', maxReadCapacity: 4000, maxWriteCapacity: 4000 };

/**
 * Auto scaling keeps the consumed capacity near 70 % of the provisioned, the rest absorbing a batch's burst (DynamoDB
 * also keeps 300 s of unused capacity for bursts); the least it scales down to is the floor a quiet night pays.
 */
export const provisionedScaling = { minCapacity: 5, targetUtilizationPercent: 70 } as const;

/** The table's capacity from the cdk context, checked: a typo fails the synth rather than deploying a default. */
export function tableCapacityOf(scope: Construct): TableCapacity {
  const context = (key: string): unknown => scope.node.tryGetContext(key);
  const mode = context(TABLE_CONTEXT.mode) ?? tableCapacityDefaults.mode;
  if (mode !== 'on-demand' && mode !== 'provisioned') throw new Error(`${TABLE_CONTEXT.mode} must be on-demand or provisioned`);
  const capacity = (key: 'maxReadCapacity' | 'maxWriteCapacity'): number => {
    const given = context(TABLE_CONTEXT[key]);
    if (given !== undefined && mode === 'on-demand') throw new Error(`${TABLE_CONTEXT[key]} applies to a provisioned table`);
    const units = Number(given ?? tableCapacityDefaults[key]);
    if (!Number.isInteger(units) || units < provisionedScaling.minCapacity)
      throw new Error(`${TABLE_CONTEXT[key]} must be a whole number of units, at least ${provisionedScaling.minCapacity}`);
    return units;
  };
  return { mode, maxReadCapacity: capacity('maxReadCapacity'), maxWriteCapacity: capacity('maxWriteCapacity') };
}

/** The table's billing: its indexes inherit the same auto scaling. */
export function tableBilling({ mode, maxReadCapacity, maxWriteCapacity }: TableCapacity): dynamodb.Billing {
  if (mode === 'on-demand') return dynamodb.Billing.onDemand();
  const autoscaled = (maxCapacity: number) => dynamodb.Capacity.autoscaled({ ...provisionedScaling, maxCapacity });
  return dynamodb.Billing.provisioned({ readCapacity: autoscaled(maxReadCapacity), writeCapacity: autoscaled(maxWriteCapacity) });
}

/** The DynamoDB operations the service calls; each is a dimension of the table's SystemErrors and throttling metrics. */
export const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

export interface TableAlarm {
  id: string;
  reason: string;
  metric: cloudwatch.IMetric;
  threshold: number;
  evaluationPeriods?: number;
}

/**
 * Throttled requests in any mode; a provisioned table also near the most auto scaling may set, for 15 minutes. The
 * remedy follows the mode, so the page says it (infra/monitoring/monitoring.ts raises them).
 */
export function tableCapacityAlarms(table: dynamodb.ITableV2, { mode, maxReadCapacity, maxWriteCapacity }: TableCapacity): TableAlarm[] {
  const period = Duration.minutes(5);
  const remedy =
    mode === 'provisioned'
      ? `raise -c ${TABLE_CONTEXT.maxWriteCapacity} or -c ${TABLE_CONTEXT.maxReadCapacity}, or deploy -c ${TABLE_CONTEXT.mode}=on-demand ` +
        'if the traffic swings faster than auto scaling follows (docs/cost.md, "Sizing the table")'
      : 'an on-demand table follows its traffic by itself: look for a hot key (docs/operations.md)';
  const throttled: TableAlarm = {
    id: 'TableThrottled',
    reason: `DynamoDB throttled requests in 5 minutes: callers got 429 \`request throttled\` or batches were retried; ${remedy}.`,
    metric: table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period }),
    threshold: 1,
  };
  if (mode !== 'provisioned') return [throttled];
  const seconds = period.toSeconds();
  const nearMax: TableAlarm = {
    id: 'TableNearMaxCapacity',
    reason:
      `The table consumed over 80 % of the capacity auto scaling may set (${maxReadCapacity} reads, ${maxWriteCapacity} writes ` +
      `a second) for 15 minutes: it throttles next; ${remedy}.`,
    metric: new cloudwatch.MathExpression({
      expression: `MAX([100 * reads / ${maxReadCapacity * seconds}, 100 * writes / ${maxWriteCapacity * seconds}])`,
      usingMetrics: {
        reads: table.metricConsumedReadCapacityUnits({ period, statistic: 'Sum' }),
        writes: table.metricConsumedWriteCapacityUnits({ period, statistic: 'Sum' }),
      },
      label: 'table: % of the most capacity auto scaling may set',
      period,
    }),
    threshold: 80,
    evaluationPeriods: 3,
  };
  return [throttled, nearMax];
}
