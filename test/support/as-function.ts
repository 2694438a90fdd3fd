/**
 * A function's code run in a test's own process as its role runs it in AWS: each AWS call it makes is checked against
 * that role's policies in the synthesized stack (local/iam/) and counts in the run's grants check
 * (test/support/grants-used.ts). The builders' own calls, outside it, are an operator's and are not checked.
 */
import { handlerPath } from '../../functions/registry.ts';
import { enforcedPolicies, enforceIam, runAs } from '../../local/iam/enforcement.ts';
import { type LocalIam, startLocalIam } from '../../local/iam/local-iam.ts';

/** The policies for each set of resource names a file of this worker used (the files of a worker share its modules). */
const policiesByNames = new Map<string, Promise<LocalIam | undefined>>();

/** Runs `work` as the function `name` (functions/<name>/handler.ts). */
export async function asFunction<T>(name: string, work: () => Promise<T>): Promise<T> {
  // the run's policies, from the file global-setup left (no synthesis here), or a delivery file's for its own table
  const names = [process.env.LOCAL_IAM_POLICIES, process.env.TABLE_NAME, process.env.BUCKET_NAME].join('|');
  if (!policiesByNames.has(names)) policiesByNames.set(names, startLocalIam(process.env));
  const iam = await policiesByNames.get(names);
  // a file before this one in the worker may have enforced other policies, or none
  if (iam && enforcedPolicies() !== iam.principals) enforceIam(iam.principals);
  return runAs(handlerPath(name), work);
}
