import { ApiError, ServiceUnavailable, Throttled } from '../errors.ts';
import { logger } from '../logger.ts';
import { classifyAwsError } from '../store/aws-errors.ts';
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

/**
 * A typed error as it is; AWS throttling as a 429 and a dependency that is down or hung as a 503, each keeping its
 * cause (shared/store/aws-errors.ts). AWS's own 500 stays the service's 500 `internal error`, worth retrying as it
 * is: a 503 promises a dependency that is down or silent. A conflicting transaction that reaches here is a 500 too
 * (stores turn the conflicts they expect into 404/409 first).
 */
function asApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const failure = classifyAwsError(error);
  if (failure === 'throttled') return new Throttled('request throttled, retry later', { cause: error });
  if (failure === 'unavailable') return new ServiceUnavailable('service unavailable, retry later', { cause: error });
  return error;
}

/** The caller is told to retry or why they were refused; operations still need to see what lay behind it. */
function logAnswered(request: HttpRequest, operation: string, error: ApiError): void {
  const fields = { requestId: requestIdOf(request), operation, status: error.status, error: errorFields(error) };
  if (error instanceof ServiceUnavailable) logger.warn('dependency unavailable', fields);
  else if (error.status >= 500) logger.warn('dependency failed', fields);
  else logger.info('request refused', fields);
}

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
