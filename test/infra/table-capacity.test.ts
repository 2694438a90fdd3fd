import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  provisionedScaling,
  TABLE_CONTEXT,
  type TableAlarm,
  tableBilling,
  tableCapacityAlarms,
  tableCapacityOf,
} from '../../infra/table-capacity.ts';

/** A table with an index alone in a stack, deployed with the given cdk context, and its alarms. */
function tableUnder(context: Record<string, string | number> = {}) {
  const stack = new Stack(new App({ context }), 'Table');
  const capacity = tableCapacityOf(stack);
  const table = new dynamodb.TableV2(stack, 'Table', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    billing: tableBilling(capacity),
    globalSecondaryIndexes: [{ indexName: 'gsi1', partitionKey: { name: 'gsi1pk', type: dynamodb.AttributeType.STRING } }],
  });
  const alarms = tableCapacityAlarms(table, capacity);
  const template = Template.fromStack(stack);
  return { template, table: Object.values(template.findResources('AWS::DynamoDB::GlobalTable'))[0]?.Properties, alarms };
}

describe('the table’s capacity as a deployment setting', () => {
  it('is on-demand by default, its throttling alarm pointing at hot keys', () => {
    // Act
    const { table, alarms } = tableUnder();
    // Assess
    expect(table?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(alarms.map(({ id }) => id)).toEqual(['TableThrottled']);
    expect(alarms[0]?.reason).toContain('hot key');
  });

  it('is provisioned with auto scaling at 70 % for the table and each index, from 5 units to the most given', () => {
    // Act
    const { table } = tableUnder({ [TABLE_CONTEXT.mode]: 'provisioned', [TABLE_CONTEXT.maxWriteCapacity]: '800' });
    // Assess
    const scaling = (max: number) => ({
      MinCapacity: provisionedScaling.minCapacity,
      MaxCapacity: max,
      TargetTrackingScalingPolicyConfiguration: { TargetValue: provisionedScaling.targetUtilizationPercent },
    });
    expect(table?.BillingMode).toBe('PROVISIONED');
    expect(table?.WriteProvisionedThroughputSettings).toEqual({ WriteCapacityAutoScalingSettings: scaling(800) });
    expect(table?.Replicas[0].ReadProvisionedThroughputSettings).toEqual({ ReadCapacityAutoScalingSettings: scaling(4000) });
    expect(table?.GlobalSecondaryIndexes[0].WriteProvisionedThroughputSettings).toEqual({
      WriteCapacityAutoScalingSettings: scaling(800),
    });
  });

  it('alarms a provisioned table near the most it may scale to, naming the settings that raise it', () => {
    // Act
    const { alarms } = tableUnder({ [TABLE_CONTEXT.mode]: 'provisioned', [TABLE_CONTEXT.maxReadCapacity]: '2000' });
    // Assess
    const nearMax = alarms.find(({ id }) => id === 'TableNearMaxCapacity') as TableAlarm;
    expect(nearMax).toMatchObject({ threshold: 80, evaluationPeriods: 3 });
    expect((nearMax.metric as cloudwatch.MathExpression).expression).toBe('MAX([100 * reads / 600000, 100 * writes / 1200000])');
    expect(nearMax.reason).toContain(`-c ${TABLE_CONTEXT.maxWriteCapacity}`);
    expect(alarms.find(({ id }) => id === 'TableThrottled')?.reason).toContain(`-c ${TABLE_CONTEXT.mode}=on-demand`);
  });

  it.each([
    [{ [TABLE_CONTEXT.mode]: 'ondemand' }, 'tableCapacityMode must be on-demand or provisioned'],
    [{ [TABLE_CONTEXT.maxWriteCapacity]: '100' }, 'tableMaxWriteCapacity applies to a provisioned table'],
    [{ [TABLE_CONTEXT.mode]: 'provisioned', [TABLE_CONTEXT.maxReadCapacity]: '2' }, 'tableMaxReadCapacity must be a whole number'],
    [{ [TABLE_CONTEXT.mode]: 'provisioned', [TABLE_CONTEXT.maxWriteCapacity]: '10.5' }, 'tableMaxWriteCapacity must be a whole number'],
  ])('refuses the setting %o', (context, message) => {
    expect(() => tableUnder(context)).toThrow(message);
  });
});
