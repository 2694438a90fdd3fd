#!/usr/bin/env node
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FleetTrackingStack } from './fleet-tracking-stack.ts';

const app = new App();
new FleetTrackingStack(app, 'FleetTracking', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// cdk-nag's AwsSolutions checks on every synth; accepted findings are argued in infra/nag-acknowledgements.ts.
Aspects.of(app).add(new AwsSolutionsChecks());
