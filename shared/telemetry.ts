import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { awsClientTimeouts } from './config.ts';
import { metricsNamespace, serviceName } from './metric-names.ts';

export { logger } from './logger.ts';
export { metricNames } from './metric-names.ts';
export { MetricUnit };

/** X-Ray through Powertools: outside Lambda (local stack, tests, scripts) it is off and every call is a no-op. */
export const tracer = new Tracer({ serviceName });

/** EMF metrics, flushed once per invocation by logMetrics; POWERTOOLS_METRICS_DISABLED silences them locally. */
export const metrics = new Metrics({ namespace: metricsNamespace, serviceName });

let secrets: Promise<SecretsProvider> | undefined;

/**
 * Secrets Manager through Powertools Parameters with a traced client, loaded and created on first use: most calls never
 * read a secret, so neither the client nor Parameters is part of module init. Fails as fast as every AWS client.
 */
export function secretsProvider(): Promise<SecretsProvider> {
  secrets ??= (async () => {
    const [{ SecretsProvider }, { SecretsManagerClient }] = await Promise.all([
      import('@aws-lambda-powertools/parameters/secrets'),
      import('@aws-sdk/client-secrets-manager'),
    ]);
    return new SecretsProvider({ awsSdkV3Client: tracer.captureAWSv3Client(new SecretsManagerClient(awsClientTimeouts())) });
  })();
  return secrets;
}
