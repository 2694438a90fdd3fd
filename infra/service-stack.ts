import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The top-level stack of a construct in a nested stack: outputs integrators and operators read belong there, so
 * `cdk deploy` prints them and `aws cloudformation describe-stacks --stack-name FleetTracking` lists them.
 */
export function serviceStack(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}
