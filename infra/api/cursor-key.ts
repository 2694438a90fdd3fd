import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { env } from '../../shared/config.ts';
import { grantSecretValue } from './providers.ts';

/**
 * The key paging cursors are sealed with (shared/paging/cursor.ts): one generated secret for the stack, read by the
 * paged operations on their first cursor and cached, so every instance seals and opens the same cursors.
 */
export function shareCursorKey(scope: Construct, functions: readonly NodejsFunction[]): secretsmanager.Secret {
  const secret = new secretsmanager.Secret(scope, 'CursorKey', {
    description: 'Seals the paging cursors of the fleet-tracking API (docs/paging.md); changing it ends the walks in progress',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  for (const fn of functions) {
    grantSecretValue(fn, secret);
    fn.addEnvironment(env.cursorKeySecret, secret.secretArn);
  }
  return secret;
}
