import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsClientTimeouts } from './config.ts';
import { metricsNamespace, serviceName } from './metric-names.ts';

export { logger } from './logger.ts';
export { metricNames } from './metric-names.ts';
export { MetricUnit };

/** X-Ray through Powertools: outside Lambda (local stack, tests, scripts) it is off and every call is a no-op. */
export const tracer = new Tracer({ serviceName });

/** EMF metrics, flushed once per invocation by logMetrics; POWERTOOLS_METRICS_DISABLED silences them locally. */
export const metrics = new Metrics({ namespace: metricsNamespace, serviceName });

let secrets: SecretsProvider | undefined;

/**
 * Secrets Manager through Powertools Parameters with a traced client, created on first use (no I/O at init), failing as fast as
 * every AWS client.
 */
export function secretsProvider(): SecretsProvider {
  secrets ??= new SecretsProvider({ awsSdkV3Client: tracer.captureAWSv3Client(new SecretsManagerClient(awsClientTimeouts())) });
  return secrets;
}
