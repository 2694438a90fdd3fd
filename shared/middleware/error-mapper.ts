import { ApiError, Throttled } from '../errors.ts';
import { logger } from '../logger.ts';
import { envelopeResponse } from './envelope.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/**
 * The one place errors become responses: a typed ApiError keeps its status and message;
 * anything else is a 500 `internal error`, logged with the request id (never the event, so never the key).
 */
export const errorMapper = (): HttpMiddleware => {
  const errorMapperOnError = (request: HttpRequest): void => {
    const error = asThrottled(request.error) ?? request.error;
    if (error instanceof ApiError) {
      request.response = envelopeResponse(error.status, {}, error.message);
      return;
    }
    logger.error('internal error', {
      requestId: request.context?.awsRequestId ?? request.event?.requestContext?.requestId,
      operation: request.event?.pathParameters?.operation,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    request.response = envelopeResponse(500, {}, 'internal error');
  };
  return { name: 'errorMapper', onError: errorMapperOnError };
};

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'SlowDown',
]);

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
