import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { env } from '../../shared/config.ts';
import { enforceIam } from './enforcement.ts';
import type { Principals } from './principals.ts';

/** `LOCAL_IAM=off` runs without enforcement (to tell an IAM refusal from a bug); anything else enforces. */
const SWITCH_VARIABLE = 'LOCAL_IAM';
/** The synthesized policies as a file, so a child process (an isolated emulator in the tests) reads them without synthesizing. */
export const POLICIES_FILE_VARIABLE = 'LOCAL_IAM_POLICIES';

/**
 * The CDK context (infra/api/providers.ts) that follows this process's provider settings: a local stack run with
 * DIRECTIONS_PROVIDER=google and a key secret gets the grants a stack deployed with `-c directionsProvider=google`
 * would have. A setting the environment does not give keeps cdk.json's value.
 */
const PROVIDER_CONTEXT: Record<string, string> = {
  liveMapProvider: env.liveMapProvider,
  mapTilesUrl: env.mapTilesUrl,
  mapTilesKeySecretName: env.mapTilesKeySecret,
  directionsProvider: env.directionsProvider,
  osrmUrl: env.osrmUrl,
  googleDirectionsSecretName: env.googleDirectionsApiKeySecret,
  geocodingProvider: env.geocodingProvider,
  googleGeocodingSecretName: env.googleGeocodingApiKeySecret,
};

const providerContext = (environment: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(PROVIDER_CONTEXT).flatMap(([context, variable]) => (environment[variable] ? [[context, environment[variable]]] : [])),
  );

interface PoliciesFile {
  context: Record<string, string>;
  /** the values of the variables that name resources, under which the principals were resolved */
  naming?: Record<string, string>;
  principals: Principals;
}

const namingOf = (variables: readonly string[], environment: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(variables.map((variable) => [variable, environment[variable] ?? '']));

export interface LocalIam {
  principals: Principals;
  stop(): void;
}

/**
 * Reads the stack's policies once (from the file a parent process left for the same provider settings and resource
 * names, or by synthesizing) and enforces them in this process. `localEnvironment` gives the local names of the
 * table, the bucket and the other resources functions find through their environment. The CDK and the stack load only
 * to synthesize: a process that reads the file (a test file, an isolated emulator) saves their second of import.
 */
export async function startLocalIam(localEnvironment: NodeJS.ProcessEnv): Promise<LocalIam | undefined> {
  if (process.env[SWITCH_VARIABLE] === 'off') return undefined;
  const context = providerContext(localEnvironment);
  const given = process.env[POLICIES_FILE_VARIABLE];
  const saved = given && existsSync(given) ? (JSON.parse(readFileSync(given, 'utf8')) as PoliciesFile) : undefined;
  const sameNames =
    !saved?.naming || JSON.stringify(namingOf(Object.keys(saved.naming), localEnvironment)) === JSON.stringify(saved.naming);
  if (saved && JSON.stringify(saved.context) === JSON.stringify(context) && sameNames) {
    enforceIam(saved.principals);
    return { principals: saved.principals, stop: () => undefined };
  }
  let principals: Principals;
  let naming: Record<string, string>;
  try {
    const { synthesizedPrincipals } = await import('./principals.ts');
    const synthesized = synthesizedPrincipals(localEnvironment, context);
    principals = synthesized.principals;
    naming = namingOf(synthesized.namingVariables, localEnvironment);
  } catch (error) {
    // Settings the stack would refuse (a provider without its URL or secret): the run's own policies, said so.
    if (!saved) throw error;
    console.error(`local IAM: the stack refuses this process's provider settings (${(error as Error).message}); the run's policies apply`);
    enforceIam(saved.principals);
    return { principals: saved.principals, stop: () => undefined };
  }
  const file = join(mkdtempSync(join(tmpdir(), 'fleet-iam-')), 'principals.json');
  writeFileSync(file, JSON.stringify({ context, naming, principals } satisfies PoliciesFile));
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
