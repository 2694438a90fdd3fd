/**
 * One local stack for the whole run: DynamoDB Local in memory, s3rver in a temp folder and the
 * API emulator, each on a free port. Test files reach it over HTTP like an integrator would.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { Principals } from '../../local/iam/principals.ts';
import { grantProblems, type RecordedCall, UNUSED_GRANT_EXCEPTIONS } from './grants-used.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dynamoEndpoint: string;
    s3Endpoint: string;
    tableName: string;
    bucketName: string;
    /** the synthesized policies the local stack enforces (local/iam/), for emulators a test starts */
    iamPoliciesFile: string;
    /** where every process of the run records the AWS calls each function made (test/infra/grants-used.ts) */
    iamCallsDir: string;
  }
}

export default async function setup(project: TestProject) {
  // Tests lock keys and expect the next request to see it, so the key cache is off here.
  process.env.API_KEY_CACHE_SECONDS = '0';
  // Likewise device tokens: a revoked token is refused at once (the ≤ 60 s cache has its own test).
  process.env.DEVICE_TOKEN_CACHE_SECONDS = '0';
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  // The device tests send Traccar's own test vectors (2015 to 2021) through the entry points, which stamp them
  // received now: the lateness window reaches back to them (still short of GPS week rollover, 1024 weeks).
  process.env.LATE_POSITIONS_WINDOW_DAYS ??= '5000';
  // As npm start: webhooks may be http to 127.0.0.1, where the tests' receivers listen (the deployed policy has its own test).
  process.env.WEBHOOK_ALLOW_LOCAL_TARGETS ??= '1';
  // The browser tests open the console the emulator serves from console/dist/.
  const { buildConsole } = await import('../../scripts/build-console.ts');
  await buildConsole();
  // Imported only now: Powertools reads the settings above when the handlers' logger and metrics are created.
  const { freePort, startLocalStack } = await import('../../local/stack.ts');
  const { CALLS_DIR_VARIABLE } = await import('../../local/iam/enforcement.ts');
  const { POLICIES_FILE_VARIABLE } = await import('../../local/iam/local-iam.ts');
  const s3Dir = mkdtempSync(join(tmpdir(), 'fleet-s3-'));
  const callsDir = mkdtempSync(join(tmpdir(), 'fleet-iam-calls-'));
  process.env[CALLS_DIR_VARIABLE] = callsDir;
  const tableName = 'fleet-tracking-test';
  const bucketName = 'fleet-tracking-test';
  const stack = await startLocalStack({
    apiPort: await freePort(),
    dynamoPort: await freePort(),
    s3Port: await freePort(),
    s3Dir,
    // a test file that delivers webhooks runs delivery itself, with its own settings (test/support/webhook-delivery.ts)
    webhooks: false,
    tableName,
    bucketName,
  });
  project.provide('apiUrl', stack.apiUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('s3Endpoint', stack.s3Endpoint);
  project.provide('tableName', tableName);
  project.provide('bucketName', bucketName);
  project.provide('iamPoliciesFile', process.env[POLICIES_FILE_VARIABLE] ?? '');
  project.provide('iamCallsDir', callsDir);
  const policiesFile = process.env[POLICIES_FILE_VARIABLE];
  const principals = policiesFile ? JSON.parse(readFileSync(policiesFile, 'utf8')).principals : undefined;
  return async () => {
    await stack.stop();
    rmSync(s3Dir, { recursive: true, force: true });
    const calls = keepCalls(callsDir);
    rmSync(callsDir, { recursive: true, force: true });
    await checkGrantsUsed(project, principals, calls);
  };
}

/** Every process's calls in one file, .local/iam-calls.jsonl, for test/infra/grants-used.ts to compare with the grants. */
function keepCalls(callsDir: string): RecordedCall[] {
  const lines = new Set(
    readdirSync(callsDir)
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => readFileSync(join(callsDir, file), 'utf8').split('\n').filter(Boolean)),
  );
  const local = fileURLToPath(new URL('../../.local/', import.meta.url));
  mkdirSync(local, { recursive: true });
  writeFileSync(join(local, 'iam-calls.jsonl'), [...lines].sort().join('\n'));
  return [...lines].map((line) => JSON.parse(line));
}

/**
 * After a whole run (every file of the integration project, no name filter, no failure: a partial run leaves grants
 * unused), the calls are compared with the grants (test/support/grants-used.ts); any problem fails `npm test`.
 */
async function checkGrantsUsed(project: TestProject, principals: Principals | undefined, calls: RecordedCall[]): Promise<void> {
  const ran = new Set(project.vitest.state.getFiles().map((file) => file.filepath));
  const { testFiles } = await project.globTestFiles();
  const whole = testFiles.every((file) => ran.has(file)) && !project.vitest.config.testNamePattern;
  if (!principals || !whole || project.vitest.state.getCountOfFailedTests() > 0) return;
  const problems = grantProblems(principals, calls, UNUSED_GRANT_EXCEPTIONS);
  if (problems.length === 0) return;
  console.error(`Grants and use differ (test/support/grants-used.ts):\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
}
