import { secretString } from '../telemetry.ts';

/**
 * A Google API key from configuration, never from a request; the one place that knows where such keys are kept:
 * in AWS a Secrets Manager secret (its name in `secretName`, cached for an hour), locally the environment.
 */
export async function googleApiKey(secretName: string | undefined, localKey: string | undefined, missing: string): Promise<string> {
  if (secretName) return secretString(secretName);
  if (!localKey) throw new Error(missing);
  return localKey;
}
