import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { stopEnforcingIam } from '../../local/iam/enforcement.ts';
import type { StackState } from './global-setup.ts';
import './matchers.ts';
import { leaveTheWorkerAsFound } from './shared-worker.ts';

/** How long a file waits for the stack the global setup started in the background (a cold JVM and a CDK synth). */
const STACK_START_LIMIT_MS = 10 * 60_000;

/** The stack's state, once the global setup has written it; a stack that failed to start fails the file with its error. */
async function stackStarted(file: string): Promise<{ iamPoliciesFile: string }> {
  for (const giveUp = Date.now() + STACK_START_LIMIT_MS; !existsSync(file); await sleep(100)) {
    if (Date.now() > giveUp) throw new Error(`the local stack did not start within ${STACK_START_LIMIT_MS / 60_000} minutes`);
  }
  const state = JSON.parse(readFileSync(file, 'utf8')) as StackState;
  if ('error' in state) throw new Error(`the local stack did not start: ${state.error}`);
  return state;
}

const { iamPoliciesFile } = await stackStarted(inject('stackStateFile'));

// Builders write through the store, which finds DynamoDB Local through the same variables as the handlers.
Object.assign(process.env, {
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  S3_ENDPOINT: inject('s3Endpoint'),
  TABLE_NAME: inject('tableName'),
  BUCKET_NAME: inject('bucketName'),
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  // An emulator a test starts enforces the same policies and records its calls with the others (local/iam/).
  LOCAL_IAM_POLICIES: iamPoliciesFile,
  LOCAL_IAM_CALLS_DIR: inject('iamCallsDir'),
});

// a file may have enforced other policies (a delivery file's own table's): the next file's asFunction enforces the run's
leaveTheWorkerAsFound(stopEnforcingIam);
