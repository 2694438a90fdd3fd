import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { PositionsPipeline, pipelineSettings, STREAM_CONTEXT } from '../../infra/positions/positions-pipeline.ts';

/** The pipeline alone in a stack, deployed with the given cdk context. */
function pipelineTemplate(context: Record<string, string | number> = {}): Template {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Pipeline');
  const table = new dynamodb.TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  new PositionsPipeline(stack, 'Pipeline', { table, bucket: new s3.Bucket(stack, 'Bucket') });
  return Template.fromStack(stack);
}

const streamOf = (template: Template) => Object.values(template.findResources('AWS::Kinesis::Stream'))[0]?.Properties;
const processorOf = (template: Template) =>
  Object.values(template.findResources('AWS::Lambda::Function')).find((fn) =>
    String(fn.Properties.Description ?? '').startsWith('stream processPositions'),
  )?.Properties;
const mappingOf = (template: Template) => Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))[0]?.Properties;

describe('the positions stream as a deployment setting', () => {
  it('is provisioned with one shard, a day of retention and one batcher by default', () => {
    // Act
    const template = pipelineTemplate();
    // Assess
    expect(streamOf(template)).toMatchObject({ StreamModeDetails: { StreamMode: 'PROVISIONED' }, ShardCount: 1, RetentionPeriodHours: 24 });
    expect(processorOf(template)?.ReservedConcurrentExecutions).toBe(1);
    expect(mappingOf(template)).toMatchObject({
      BatchSize: pipelineSettings.batchSize,
      ParallelizationFactor: pipelineSettings.parallelizationFactor,
      MaximumBatchingWindowInSeconds: pipelineSettings.batchingWindowS,
    });
  });

  it('takes the shard count and retention given, and reserves one batcher per shard', () => {
    // Act
    const template = pipelineTemplate({ [STREAM_CONTEXT.shards]: '3', [STREAM_CONTEXT.retentionHours]: '168' });
    // Assess
    expect(streamOf(template)).toMatchObject({ ShardCount: 3, RetentionPeriodHours: 168 });
    expect(processorOf(template)?.ReservedConcurrentExecutions).toBe(3 * pipelineSettings.parallelizationFactor);
  });

  it('switches to on-demand, without a shard count, capping the batchers that a growing stream may start', () => {
    // Act
    const template = pipelineTemplate({ [STREAM_CONTEXT.mode]: 'on-demand' });
    // Assess
    expect(streamOf(template)?.StreamModeDetails).toEqual({ StreamMode: 'ON_DEMAND' });
    expect(streamOf(template)?.ShardCount).toBeUndefined();
    expect(processorOf(template)?.ReservedConcurrentExecutions).toBe(8);
  });

  it.each([
    [{ [STREAM_CONTEXT.mode]: 'ondemand' }, 'positionsStreamMode must be provisioned or on-demand'],
    [{ [STREAM_CONTEXT.shards]: '0' }, 'positionsStreamShards must be a whole number of shards'],
    [{ [STREAM_CONTEXT.shards]: '1.5' }, 'positionsStreamShards must be a whole number of shards'],
    [{ [STREAM_CONTEXT.mode]: 'on-demand', [STREAM_CONTEXT.shards]: '2' }, 'applies to a provisioned stream'],
    [{ [STREAM_CONTEXT.retentionHours]: '12' }, 'positionsStreamRetentionHours must be whole hours from 24 to 8760'],
  ])('refuses the setting %o', (context, message) => {
    expect(() => pipelineTemplate(context)).toThrow(message);
  });
});
