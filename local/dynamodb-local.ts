import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { assertPortFree, waitForPort } from './ports.ts';

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer: install a JRE (e.g. `apt-get install openjdk-17-jre-headless`) and run again.';

/** The official DynamoDBLocal.jar, as shipped inside the amplify-dynamodb-simulator package. */
function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export const isJavaMissing = (): boolean => Boolean(spawnSync('java', ['-version']).error);

/** Where a DynamoDB Local started with this dbPath records its process id, to recognise it when it outlives us. */
const pidFile = (dbPath: string): string => join(dbPath, 'dynamodb-local.pid');

/** The process id of this project's DynamoDB Local for dbPath that is still running (a leftover), if any. */
export function leftoverDynamoDbLocal(dbPath: string): number | undefined {
  const file = pidFile(dbPath);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  // On Linux, make sure the id was not reused by another program.
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync(cmdline) && !readFileSync(cmdline, 'utf8').includes('DynamoDBLocal.jar')) return undefined;
  return pid;
}

/**
 * Starts AWS's DynamoDB Local: in memory for tests, or on disk (dbPath) so `npm start` keeps its data.
 * -sharedDb: one database whatever credentials and region a client uses (the admin CLI, the server, tests).
 */
/**
 * A JVM for a run of minutes on a small machine (the test run): C1 only, as C2's compile threads cost more CPU than
 * they give back before the run ends. Over the operations' test files the JVM used 56 s of CPU with the defaults, 39 s
 * with C1 and the serial collector, 52 s with the serial collector alone (docs/testing.md). The collector stays G1:
 * the serial one's pauses let a request pass the run's 6 s.
 */
const SHORT_RUN_JVM = ['-XX:TieredStopAtLevel=1'];

export async function startDynamoDbLocal({
  port,
  dbPath,
  shortRun = false,
}: {
  port: number;
  dbPath?: string;
  shortRun?: boolean;
}): Promise<DynamoDbLocal> {
  if (isJavaMissing()) throw new Error(JAVA_MISSING);
  await assertPortFree(port, 'DynamoDB Local');
  const emulator = emulatorDirectory();
  const storage = dbPath ? ['-dbPath', resolve(dbPath)] : ['-inMemory'];
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  // It writes dynamodb-local-metadata.json (a telemetry id) into its working folder: keep that out of the project.
  const workDir = dbPath ? resolve(dbPath) : mkdtempSync(join(tmpdir(), 'fleet-dynamodb-'));
  const java: ChildProcess = spawn(
    'java',
    [
      ...(shortRun ? SHORT_RUN_JVM : []),
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], cwd: workDir },
  );
  if (dbPath && java.pid) writeFileSync(pidFile(dbPath), String(java.pid));
  // Its stderr is chatty; keep the tail to explain a failed start (e.g. the port is taken).
  let stderrTail = '';
  java.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  const killJava = () => java.kill('SIGTERM');
  process.once('exit', killJava);
  let exited = false;
  const exit = new Promise<void>((done) =>
    java.once('exit', () => {
      exited = true;
      if (dbPath) rmSync(pidFile(dbPath), { force: true });
      else rmSync(workDir, { recursive: true, force: true });
      done();
    }),
  );
  try {
    await waitForPort(port, 60_000, () => !exited);
  } catch (error) {
    killJava();
    const cause = /BindException[^\n]*/.exec(stderrTail)?.[0] ?? stderrTail.split('\n').find((line) => line.includes('Exception'));
    throw new Error(`DynamoDB Local did not start on port ${port}${cause ? `: ${cause.trim()}` : ''}`, { cause: error });
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      process.removeListener('exit', killJava);
      if (!exited) killJava();
      await exit;
    },
  };
}
