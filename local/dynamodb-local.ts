import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/**
 * Starts AWS's DynamoDB Local: in memory for tests, or on disk (dbPath) so `npm start` keeps its data.
 * -sharedDb: one database whatever credentials and region a client uses (the admin CLI, the server, tests).
 */
export async function startDynamoDbLocal({ port, dbPath }: { port: number; dbPath?: string }): Promise<DynamoDbLocal> {
  if (spawnSync('java', ['-version']).error) throw new Error(JAVA_MISSING);
  await assertPortFree(port, 'DynamoDB Local');
  const emulator = emulatorDirectory();
  const storage = dbPath ? ['-dbPath', dbPath] : ['-inMemory'];
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const java: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Its stderr is chatty; keep the tail to explain a failed start (e.g. the port is taken).
  let stderrTail = '';
  java.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  const killJava = () => java.kill('SIGTERM');
  process.once('exit', killJava);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    java.once('exit', () => {
      exited = true;
      resolve();
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
