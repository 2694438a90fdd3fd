/**
 * The one answer to "is this AWS failure worth retrying, and how does it fail?", for the API's error mapper (429, 503,
 * 500) and the positions pipeline (retry the vehicle's records or refuse them). The SDK's own classifier decides
 * what it knows (`@smithy/service-error-classification`, which also follows `cause`); this adds what it does not
 * read: a cancelled transaction's reasons, S3's `ServiceUnavailable` by its code, and a call our deadline aborted.
 */
import { isServerError, isThrottlingError, isTransientError } from '@smithy/service-error-classification';

export type AwsFailure =
  /** AWS throttled the call, or a table in a transaction: the same call, later and more slowly */
  | 'throttled'
  /** down or silent: a timeout, a refused or dropped connection, a 502-504, a call our deadline aborted */
  | 'unavailable'
  /** AWS's own 500 (InternalServerError): AWS says retry, but it is no sign that the dependency is down */
  | 'server fault'
  /** another write came between the transaction's reads and its writes: the same work, read again, may pass */
  | 'conflict'
  /** the same call fails the same way: a key or item AWS refuses, a bug */
  | 'lasting';

/** The classifiers read an SDK error's optional `$metadata`, `$fault` and `$retryable`, and a Node error's `code`: any Error will do. */
type SdkError = Parameters<typeof isTransientError>[0];

/** Reasons a transaction was cancelled that no retry gets past (an item too large, a key refused). */
const LASTING_CANCELLATIONS = new Set(['ValidationError', 'ItemCollectionSizeLimitExceeded']);
/** How DynamoDB says a transaction was cancelled because a table or index was throttled. */
const THROTTLED_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

export function classifyAwsError(error: unknown): AwsFailure {
  if (!(error instanceof Error)) return 'lasting';
  if (error.name === 'TransactionCanceledException') return cancellation(error);
  const sdkError = error as SdkError;
  if (isThrottlingError(sdkError)) return 'throttled';
  // S3's 503 by its code: the classifier knows a 503 only by `$metadata.httpStatusCode`, which a modelled S3 error may lack.
  if (error.name === 'ServiceUnavailable' || error.name === 'AbortError') return 'unavailable';
  if (isTransientError(sdkError)) return isAwsInternalError(sdkError) ? 'server fault' : 'unavailable';
  if (isServerError(sdkError) || error.name === 'InternalServerError') return 'server fault';
  return 'lasting';
}

/** Throttling, a timeout, a network error, AWS's 500 or a conflicting write: the same call may pass later. */
export const isWorthRetrying = (error: unknown): boolean => classifyAwsError(error) !== 'lasting';

function cancellation(error: Error): AwsFailure {
  const codes = ((error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map(
    (reason) => reason.Code ?? '',
  );
  if (codes.some((code) => LASTING_CANCELLATIONS.has(code))) return 'lasting';
  return codes.some((code) => THROTTLED_CANCELLATIONS.has(code)) ? 'throttled' : 'conflict';
}

/** The classifier calls AWS's own 500 answer transient; a wrapper's 500 (one with a cause) is the cause's failure. */
const isAwsInternalError = (error: SdkError): boolean => error.$metadata?.httpStatusCode === 500 && error.cause === undefined;
