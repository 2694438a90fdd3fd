#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { FleetTrackingStack } from './fleet-tracking-stack.ts';

const app = new App();
new FleetTrackingStack(app, 'FleetTracking', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
