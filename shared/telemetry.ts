import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { awsClientTimeouts } from './config.ts';
import { expiringCache } from './expiring-cache.ts';
import { metricsNamespace, serviceName } from './metric-names.ts';
import { Tracer } from './tracing.ts';

export { logger } from './logger.ts';
export { metricNames } from './metric-names.ts';
export { MetricUnit };

/** X-Ray segments of sampled invocations (shared/tracing.ts): outside Lambda it is off and every call is a no-op. */
export const tracer = new Tracer(serviceName);

/** EMF metrics, flushed once per invocation by logMetrics; POWERTOOLS_METRICS_DISABLED silences them locally. */
export const metrics = new Metrics({ namespace: metricsNamespace, serviceName });

/** Secrets kept an hour, as the providers' keys and the cursor key were; the clock read on each look-up (fake in tests). */
const secretCache = expiringCache<string>(3_600_000, () => Date.now());

let readSecretText: Promise<(secretId: string) => Promise<string | undefined>> | undefined;

/**
 * A Secrets Manager secret's text, read on first use and kept an hour. The SDK's Secrets Manager client is imported
 * then, so it is no part of module init (a dynamic import of an external package stays one in the bundle): most calls
 * never read a secret. A failed read is not kept. Fails as fast as every AWS client.
 */
export async function secretString(name: string): Promise<string> {
  const kept = secretCache.get(name);
  if (kept !== undefined) return kept;
  readSecretText ??= import('@aws-sdk/client-secrets-manager').then(({ GetSecretValueCommand, SecretsManagerClient }) => {
    const client = tracer.captureAWSv3Client(new SecretsManagerClient(awsClientTimeouts()));
    return async (secretId) => (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  });
  const text = await (await readSecretText)(name);
  if (text === undefined) throw new Error(`secret ${name} holds no text`);
  secretCache.set(name, text);
  return text;
}
