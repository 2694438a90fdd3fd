import type { Metrics } from '@aws-lambda-powertools/metrics';
import { ApiError } from '../errors.ts';
import { logger, MetricUnit, metricNames, metrics, tracer } from '../telemetry.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/**
 * Names the request in logs, traces and metrics, and counts it. Sits outside the error mapper, so it sees
 * the final status. Dimensions stay within CloudWatch's limits: `operation` (one per registry entry) on every
 * metric, and `errorClass` (a handful of typed-error names) only on the error count.
 *
 * `countEachRequest: false` (the device entry points, a request a position) leaves out the count, latency and
 * `request answered` line of a request that succeeded: the HTTP API's own metrics and access log have them, and
 * each would cost a log line per position (docs/cost.md). Errors are counted either way.
 */
export const requestTelemetry = (operation: string, { countEachRequest = true } = {}): HttpMiddleware => {
  const startedAt = new WeakMap<HttpRequest, number>();

  const requestTelemetryBefore = (request: HttpRequest): void => {
    // Date.now, not performance.now: the global `performance` loads perf_hooks at its first use, 0.5 ms of a cold call
    startedAt.set(request, Date.now());
    logger.appendKeys({ operation });
    tracer.putAnnotation('operation', operation);
    // A Lambda container serves one request at a time; the local emulator shares the instance between concurrent ones.
    metrics.clearDimensions();
    metrics.addDimension('operation', operation);
  };

  const requestTelemetryAfter = (request: HttpRequest): void => {
    const status = request.response?.statusCode ?? 500;
    if (countEachRequest) {
      metrics.addMetric(metricNames.requests, MetricUnit.Count, 1);
      const latencyMs = Date.now() - (startedAt.get(request) ?? Date.now());
      metrics.addMetric(metricNames.latency, MetricUnit.Milliseconds, latencyMs);
      logger.info('request answered', { status, latency_ms: Math.round(latencyMs) });
    }
    if (status >= 400) {
      const errors = metrics.singleMetric();
      errors.addDimensions({ operation, errorClass: errorClass(request.error, status) });
      errors.addMetric(metricNames.errors, MetricUnit.Count, 1);
    }
  };
  return { name: 'requestTelemetry', before: requestTelemetryBefore, after: requestTelemetryAfter, onError: requestTelemetryAfter };
};

/** Logs and traces carry the key's user from the moment it is known; the key itself never. */
export function identifyUser(userUid: number): void {
  logger.appendKeys({ user_uid: userUid });
  tracer.putAnnotation('user_uid', userUid);
}

/** The typed error's class name (Unauthorized, NotFound, Throttled…), else the status class. */
function errorClass(error: unknown, status: number): string {
  if (error instanceof ApiError) return error.name;
  if (status === 429) return 'Throttled';
  return status >= 500 ? 'InternalError' : 'ClientError';
}

/**
 * Powertools' logMetrics for a chain whose ordinary request adds no metric: the stored metrics are published only
 * when there are some (logMetrics would log a warning line for every request without), and the cold start once.
 */
export const publishMetricsWhenAny = (published: Metrics): HttpMiddleware => {
  const publishWhenAny = (): void => {
    if (published.hasStoredMetrics()) published.publishStoredMetrics();
  };
  return {
    name: 'publishMetricsWhenAny',
    before: ({ context }) => {
      published.captureColdStartMetric(context.functionName);
    },
    after: publishWhenAny,
    onError: publishWhenAny,
  };
};
