import { ApiError, ServiceUnavailable, Throttled } from '../errors.ts';
import { logger } from '../logger.ts';
import { envelopeResponse } from './envelope.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/**
 * The one place errors become responses: a typed ApiError keeps its status and message; AWS throttling
 * is a 429, a dependency that is down or silent a 503; anything else is a 500 `internal error`, logged
 * with the request id and the operation the chain was built for (never the event, so never the key).
 */
export const errorMapper = ({ operation }: { operation: string }): HttpMiddleware => {
  const errorMapperOnError = (request: HttpRequest): void => {
    const unavailable = asUnavailable(request.error);
    // The caller is told to retry; operations still need to see which dependency stopped answering.
    if (unavailable) logger.warn('dependency unavailable', { requestId: requestIdOf(request), error: errorFields(request.error) });
    const error = asThrottled(request.error) ?? unavailable ?? request.error;
    if (error instanceof ApiError) {
      request.response = envelopeResponse(error.status, {}, error.message);
      return;
    }
    logger.error('internal error', {
      requestId: requestIdOf(request),
      operation,
      error: errorFields(error),
    });
    request.response = envelopeResponse(500, {}, 'internal error');
  };
  return { name: 'errorMapper', onError: errorMapperOnError };
};

const requestIdOf = (request: HttpRequest): string | undefined => request.context?.awsRequestId ?? request.event?.requestContext?.requestId;

const errorFields = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error);

const THROTTLING_ERRORS = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'SlowDown']);

/** How DynamoDB says a transaction was cancelled because a table or index was throttled. */
const THROTTLED_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/** AWS throttling is the caller's cue to retry, not a fault of ours: 429, not 500. */
function asThrottled(error: unknown): Throttled | undefined {
  if (error instanceof Error && (THROTTLING_ERRORS.has(error.name) || throttledTransaction(error))) {
    return new Throttled('request throttled, retry later');
  }
  return undefined;
}

/** Stores turn failed conditions into 404/409 first; a cancellation that still reaches here naming throttling is throttling. */
function throttledTransaction(error: Error): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return error.name === 'TransactionCanceledException' && (reasons ?? []).some((reason) => THROTTLED_CANCELLATIONS.has(reason.Code ?? ''));
}

/**
 * How a dependency that did not answer in time shows: the SDK's HTTP handler (connection or request timeout),
 * AWS itself, and middy's own TimeoutError just before the function's deadline (the handler was still waiting on something).
 */
const TIMEOUT_ERRORS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ServiceUnavailable']);

/** Node's codes for a dependency that cannot be reached or dropped the connection. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * A DynamoDB, S3 or Secrets Manager that is down or hung is a passing outage, not a fault of ours: 503, not 500.
 * Wrappers (Powertools' GetParameterError) keep the SDK's error as their cause.
 */
function asUnavailable(error: unknown): ServiceUnavailable | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && !(cause instanceof ApiError) && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (TIMEOUT_ERRORS.has(cause.name) || (typeof code === 'string' && CONNECTION_ERRORS.has(code))) {
      return new ServiceUnavailable('service unavailable, retry later');
    }
  }
  return undefined;
}
