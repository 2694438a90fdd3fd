import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The admin CLI as an operator runs it, pointed at the test run's DynamoDB Local: its one JSON object and exit code. */
export async function admin(...args: string[]): Promise<{ json: Record<string, any>; code: number }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env });
    return { json: JSON.parse(stdout), code: 0 };
  } catch (error) {
    const failed = error as { stderr: string; code: number };
    return { json: JSON.parse(failed.stderr), code: failed.code };
  }
}
