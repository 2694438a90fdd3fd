import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FleetTrackingStack } from '../../infra/fleet-tracking-stack.ts';
import { SYNTH_TIMEOUT_MS } from './service-template.ts';

/**
 * CloudFormation's per-stack quotas (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html).
 * A template is read from S3 (1 MB) when the stack's synthesizer uploads it as an asset, as the default one does and as
 * every nested stack's is; `cdk deploy` sends a direct body (51,200 bytes) only otherwise.
 */
const QUOTAS = { resources: 500, outputs: 200, parameters: 200 } as const;
const TEMPLATE_BYTES = { fromS3: 1_000_000, direct: 51_200 } as const;

/** Each stack keeps a fifth of every quota free, so an operation, a queue or an alarm never makes it undeployable. */
const HEADROOM = 0.8;

type StackFigures = { stack: string; resources: number; outputs: number; parameters: number; templateBytes: number; templateQuota: number };

let figures: StackFigures[];

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new FleetTrackingStack(app, 'FleetTracking');
  const assembly = app.synth();
  const stacks = app.node.findAll().filter((construct): construct is Stack => construct instanceof Stack);
  figures = stacks.map((stack) => {
    const file = join(assembly.directory, stack.templateFile);
    const template = JSON.parse(readFileSync(file, 'utf8'));
    const fromS3 =
      stack.nestedStackParent !== undefined || assembly.getStackArtifact(stack.artifactId).stackTemplateAssetObjectUrl !== undefined;
    return {
      stack: stack.node.path,
      resources: Object.keys(template.Resources ?? {}).length,
      outputs: Object.keys(template.Outputs ?? {}).length,
      parameters: Object.keys(template.Parameters ?? {}).length,
      templateBytes: statSync(file).size,
      templateQuota: fromS3 ? TEMPLATE_BYTES.fromS3 : TEMPLATE_BYTES.direct,
    };
  });
  console.table(figures);
}, SYNTH_TIMEOUT_MS);

describe('every stack of the service', () => {
  it('is split into the API stack and its nested stacks', () => {
    expect(figures.map(({ stack }) => stack).sort()).toEqual([
      'FleetTracking',
      'FleetTracking/Monitoring',
      'FleetTracking/Positions',
      'FleetTracking/ReadOperations',
      'FleetTracking/Webhooks',
      'FleetTracking/WriteOperations',
    ]);
  });

  for (const quota of ['resources', 'outputs', 'parameters'] as const) {
    it(`stays at or under 80 % of CloudFormation's ${QUOTAS[quota]} ${quota}`, () => {
      const over = figures
        .filter((stack) => stack[quota] > QUOTAS[quota] * HEADROOM)
        .map((stack) => `${stack.stack}: ${stack[quota]} ${quota} of ${QUOTAS[quota]}`);
      expect(over).toEqual([]);
    });
  }

  it("stays at or under 80 % of CloudFormation's template size for the way cdk deploy sends it", () => {
    const over = figures
      .filter((stack) => stack.templateBytes > stack.templateQuota * HEADROOM)
      .map((stack) => `${stack.stack}: template of ${stack.templateBytes} bytes, quota ${stack.templateQuota}`);
    expect(over).toEqual([]);
  });
});
