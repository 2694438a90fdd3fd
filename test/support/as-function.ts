/**
 * A function's code run in a test's own process as its role runs it in AWS: each AWS call it makes is checked against
 * that role's policies in the synthesized stack (local/iam/) and counts in the run's grants check
 * (test/support/grants-used.ts). The builders' own calls, outside it, are an operator's and are not checked.
 */
import { handlerPath } from '../../functions/registry.ts';
import { runAs } from '../../local/iam/enforcement.ts';
import { startLocalIam } from '../../local/iam/local-iam.ts';

let enforcing: Promise<unknown> | undefined;

/** Runs `work` as the function `name` (functions/<name>/handler.ts). */
export async function asFunction<T>(name: string, work: () => Promise<T>): Promise<T> {
  // the run's policies, from the file global-setup left (no synthesis here)
  enforcing ??= startLocalIam(process.env);
  await enforcing;
  return runAs(handlerPath(name), work);
}
