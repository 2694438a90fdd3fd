import { isThrottlingError, isTransientError } from '@smithy/service-error-classification';
import { ApiError, ServiceUnavailable, Throttled } from '../errors.ts';
import { logger } from '../logger.ts';
import { envelopeResponse } from './envelope.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/**
 * The one place errors become responses: a typed ApiError keeps its status and message; AWS throttling
 * is a 429, a dependency that is down or silent a 503; anything else is a 500 `internal error`, logged
 * with the request id and the operation the chain was built for (never the event, so never the key).
 * An answered error that stands for a lower one (its `cause`: the cancelled transaction behind a 409, the
 * provider's timeout behind a 502) is logged with that cause, which the answer never shows.
 */
export const errorMapper = ({ operation }: { operation: string }): HttpMiddleware => {
  const errorMapperOnError = (request: HttpRequest): void => {
    const error = asApiError(request.error);
    if (error instanceof ApiError) {
      if (error.cause !== undefined) logAnswered(request, operation, error);
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

/** A typed error as it is; AWS throttling as a 429 and a dependency that is down or hung as a 503, each keeping its cause. */
function asApiError(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof Error)) return error;
  const sdkError = error as SdkError;
  if (isThrottlingError(sdkError) || throttledTransaction(error)) return new Throttled('request throttled, retry later', { cause: error });
  // Timeouts (the SDK's, AWS's, middy's at the deadline), refused or dropped connections, 5xx answers; also as a wrapper's cause.
  if ((isTransientError(sdkError) && !isAwsInternalError(sdkError)) || error.name === S3_UNAVAILABLE) {
    return new ServiceUnavailable('service unavailable, retry later', { cause: error });
  }
  return error;
}

/** The caller is told to retry or why they were refused; operations still need to see what lay behind it. */
function logAnswered(request: HttpRequest, operation: string, error: ApiError): void {
  const fields = { requestId: requestIdOf(request), operation, status: error.status, error: errorFields(error) };
  if (error instanceof ServiceUnavailable) logger.warn('dependency unavailable', fields);
  else if (error.status >= 500) logger.warn('dependency failed', fields);
  else logger.info('request refused', fields);
}

/**
 * AWS's own 500 (DynamoDB's InternalServerError) stays the service's 500 `internal error`, as it answered before the
 * classifier: the classifier calls every 5xx transient, but a 503 here promises that the dependency is down or silent.
 */
const isAwsInternalError = (error: SdkError): boolean => error.$metadata?.httpStatusCode === 500 && error.cause === undefined;

/** S3's 503 by its code: the classifier knows a 503 only by `$metadata.httpStatusCode`, which a modelled S3 error may lack. */
const S3_UNAVAILABLE = 'ServiceUnavailable';

/** The classifiers read an SDK error's optional `$metadata` and `$retryable`, and a Node error's `code`: any Error will do. */
type SdkError = Parameters<typeof isTransientError>[0];

const requestIdOf = (request: HttpRequest): string | undefined => request.context?.awsRequestId ?? request.event?.requestContext?.requestId;

interface ErrorFields {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: ErrorFields | string;
}

/** The error and its chain of causes (a few levels: wrappers of wrappers add nothing after that). */
const errorFields = (error: unknown, depth = 0): ErrorFields | string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.cause !== undefined && depth < 4 ? { cause: errorFields(error.cause, depth + 1) } : {}),
  };
};

/** How DynamoDB says a transaction was cancelled because a table or index was throttled (which no classifier reads). */
const THROTTLED_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/** Stores turn failed conditions into 404/409 first; a cancellation that still reaches here naming throttling is throttling. */
function throttledTransaction(error: Error): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return error.name === 'TransactionCanceledException' && (reasons ?? []).some((reason) => THROTTLED_CANCELLATIONS.has(reason.Code ?? ''));
}
