/**
 * One local stack for the whole run: DynamoDB Local in memory, s3rver in a temp folder and the
 * API emulator, each on a free port. Test files reach it over HTTP like an integrator would.
 *
 * vitest runs every project's global setup before any test file, so this one only chooses the ports and starts
 * the stack in the background: the unit files run meanwhile, and each file on the stack waits for it in its
 * setup (test/support/setup.ts reads the state file, written once the stack is up or has failed).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { Principals } from '../../local/iam/principals.ts';
import { freePort } from '../../local/ports.ts';
import { grantProblems, type RecordedCall, UNUSED_GRANT_EXCEPTIONS } from './grants-used.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dynamoEndpoint: string;
    s3Endpoint: string;
    tableName: string;
    bucketName: string;
    /** where the stack's state is written once it is up ({@link StackState}) */
    stackStateFile: string;
    /** where every process of the run records the AWS calls each function made (test/infra/grants-used.ts) */
    iamCallsDir: string;
  }
}

/** The stack and the projects using it: the integration and whole-table projects share one (vitest.config.ts). */
interface SharedStack {
  prepared: Promise<PreparedStack>;
  projects: TestProject[];
  /** the projects whose teardown has not run yet */
  running: Set<TestProject>;
}

/** What a test file learns once the stack is up, or why it did not start. */
export type StackState = { iamPoliciesFile: string } | { error: string };

/** The stack's addresses, known before it is up, and the stack itself once it is (undefined when it failed to start). */
interface PreparedStack {
  context: ProvidedContext;
  started: Promise<StartedStack | undefined>;
}

interface StartedStack {
  stop(): Promise<void>;
  principals: Principals | undefined;
}

/** Global setups run in vitest's main process; each project loads this module anew, so the stack is kept on globalThis. */
const shared = globalThis as { fleetTestStack?: SharedStack };

export default async function setup(project: TestProject) {
  shared.fleetTestStack ??= { prepared: prepareStack(), projects: [], running: new Set() };
  const stack = shared.fleetTestStack;
  stack.projects.push(project);
  stack.running.add(project);
  const { context, started } = await stack.prepared;
  for (const [key, value] of Object.entries(context)) project.provide(key as keyof ProvidedContext, value);
  return async () => {
    stack.running.delete(project);
    if (stack.running.size > 0) return;
    shared.fleetTestStack = undefined;
    const running = await started;
    await running?.stop();
    const calls = keepCalls(context.iamCallsDir);
    rmSync(context.iamCallsDir, { recursive: true, force: true });
    rmSync(dirname(context.stackStateFile), { recursive: true, force: true });
    await checkGrantsUsed(stack.projects, running?.principals, calls);
  };
}

async function prepareStack(): Promise<PreparedStack> {
  // Tests lock keys and expect the next request to see it, so the key cache is off here.
  process.env.API_KEY_CACHE_SECONDS = '0';
  // Likewise device tokens: a revoked token is refused at once (the ≤ 60 s cache has its own test).
  process.env.DEVICE_TOKEN_CACHE_SECONDS = '0';
  // DynamoDB Local shares the two cores with the workers: a connection and an attempt may wait this long, and a
  // machine that stalls (a CI runner's neighbour) may cost an attempt its answer, so a call has a third attempt
  // (shared/config.ts); the timeouts and attempts themselves have their test, with the deployed values
  // (test/project/hung-dependencies.test.ts).
  process.env.AWS_CONNECTION_TIMEOUT_MS ??= '5000';
  process.env.AWS_REQUEST_TIMEOUT_MS ??= '6000';
  process.env.AWS_MAX_ATTEMPTS ??= '3';
  // The stack's handlers print their warnings and errors into the run's output (a quiet run has a handful): a 5xx
  // that fails a test then shows its cause. Each test file sets its own processes silent (test/support/setup.ts).
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  // The device tests send Traccar's own test vectors (2015 to 2021) through the entry points, which stamp them
  // received now: the lateness window reaches back to them (still short of GPS week rollover, 1024 weeks).
  process.env.LATE_POSITIONS_WINDOW_DAYS ??= '5000';
  // As npm start: webhooks may be http to 127.0.0.1, where the tests' receivers listen (the deployed policy has its own test).
  process.env.WEBHOOK_ALLOW_LOCAL_TARGETS ??= '1';
  const s3Dir = mkdtempSync(join(tmpdir(), 'fleet-s3-'));
  const callsDir = mkdtempSync(join(tmpdir(), 'fleet-iam-calls-'));
  const stackStateFile = join(mkdtempSync(join(tmpdir(), 'fleet-stack-')), 'state.json');
  const tableName = 'fleet-tracking-test';
  const bucketName = 'fleet-tracking-test';
  const [apiPort, dynamoPort, s3Port] = [await freePort(), await freePort(), await freePort()];
  // Imported only now: Powertools reads the settings above when the handlers' logger and metrics are created.
  const modules = Promise.all([
    import('../../local/stack.ts'),
    import('../../local/iam/enforcement.ts'),
    import('../../local/iam/local-iam.ts'),
    // the browser tests open the console the emulator serves from console/dist/
    import('../../scripts/build-console.ts').then(({ buildConsole }) => buildConsole()),
  ]);
  const starting = modules.then(async ([{ startLocalStack }, { CALLS_DIR_VARIABLE }, { POLICIES_FILE_VARIABLE }]) => {
    process.env[CALLS_DIR_VARIABLE] = callsDir;
    const stack = await startLocalStack({
      apiPort,
      dynamoPort,
      s3Port,
      s3Dir,
      // a test file that delivers webhooks runs delivery itself, with its own settings (test/support/webhooks.ts)
      webhooks: false,
      shortRun: true,
      tableName,
      bucketName,
    });
    return { stack, iamPoliciesFile: process.env[POLICIES_FILE_VARIABLE] ?? '' };
  });
  const started = starting.then(
    ({ stack, iamPoliciesFile }): StartedStack => {
      writeState(stackStateFile, { iamPoliciesFile });
      return {
        principals: iamPoliciesFile ? JSON.parse(readFileSync(iamPoliciesFile, 'utf8')).principals : undefined,
        async stop() {
          await stack.stop();
          rmSync(s3Dir, { recursive: true, force: true });
        },
      };
    },
    (error: Error) => {
      console.error('The local stack did not start:', error);
      writeState(stackStateFile, { error: error.stack ?? String(error) });
      rmSync(s3Dir, { recursive: true, force: true });
      return undefined;
    },
  );
  const loopback = (port: number) => `http://127.0.0.1:${port}`;
  return {
    context: {
      apiUrl: loopback(apiPort),
      dynamoEndpoint: loopback(dynamoPort),
      s3Endpoint: loopback(s3Port),
      tableName,
      bucketName,
      stackStateFile,
      iamCallsDir: callsDir,
    },
    started,
  };
}

/** Written whole under another name first, so a reader never sees half of it. */
function writeState(file: string, state: StackState): void {
  writeFileSync(`${file}.partial`, JSON.stringify(state));
  renameSync(`${file}.partial`, file);
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
 * After a whole run (every file of the projects on the stack, no name filter, no failure: a partial run leaves grants
 * unused), the calls are compared with the grants (test/support/grants-used.ts); any problem fails `npm test`.
 */
async function checkGrantsUsed(projects: TestProject[], principals: Principals | undefined, calls: RecordedCall[]): Promise<void> {
  const { vitest } = projects[0] as TestProject;
  const ran = new Set(vitest.state.getFiles().map((file) => file.filepath));
  const testFiles = (await Promise.all(projects.map(async (project) => (await project.globTestFiles()).testFiles))).flat();
  const whole = testFiles.every((file) => ran.has(file)) && !vitest.config.testNamePattern;
  if (!principals || !whole || vitest.state.getCountOfFailedTests() > 0) return;
  const problems = grantProblems(principals, calls, UNUSED_GRANT_EXCEPTIONS);
  if (problems.length === 0) return;
  console.error(`Grants and use differ (test/support/grants-used.ts):\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
}
