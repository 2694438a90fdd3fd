import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { enforceIam } from './enforcement.ts';
import { type Principals, synthesizedPrincipals } from './principals.ts';

/** `LOCAL_IAM=off` runs without enforcement (to tell an IAM refusal from a bug); anything else enforces. */
const SWITCH_VARIABLE = 'LOCAL_IAM';
/** The synthesized policies as a file, so a child process (an isolated emulator in the tests) reads them without synthesizing. */
export const POLICIES_FILE_VARIABLE = 'LOCAL_IAM_POLICIES';

export interface LocalIam {
  principals: Principals;
  stop(): void;
}

/**
 * Reads the stack's policies once (from the file a parent process left, or by synthesizing) and enforces them in this
 * process. `localEnvironment` gives the local names of the table, bucket and the other resources functions find
 * through their environment.
 */
export function startLocalIam(localEnvironment: NodeJS.ProcessEnv): LocalIam | undefined {
  if (process.env[SWITCH_VARIABLE] === 'off') return undefined;
  const given = process.env[POLICIES_FILE_VARIABLE];
  if (given && existsSync(given)) {
    const principals = JSON.parse(readFileSync(given, 'utf8')) as Principals;
    enforceIam(principals);
    return { principals, stop: () => undefined };
  }
  const principals = synthesizedPrincipals(localEnvironment);
  const file = join(mkdtempSync(join(tmpdir(), 'fleet-iam-')), 'principals.json');
  writeFileSync(file, JSON.stringify(principals));
  process.env[POLICIES_FILE_VARIABLE] = file;
  enforceIam(principals);
  return {
    principals,
    stop: () => {
      rmSync(dirname(file), { recursive: true, force: true });
      if (process.env[POLICIES_FILE_VARIABLE] === file) delete process.env[POLICIES_FILE_VARIABLE];
    },
  };
}
