/**
 * What the Amazon Location Service clients (Places for reverse geocoding, Routes for directions) share: IAM
 * authentication through the function's role (no key), and a local endpoint with fake credentials only in tests.
 */

import { config } from '../config.ts';
import { ProviderFailed } from '../errors.ts';

export function amazonLocationClientSettings(endpoint: string | undefined) {
  return endpoint ? { endpoint, region: config.region('us-east-1'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {};
}

/** An SDK error as the provider's failure, by its name and HTTP status (never its message, which may quote the request). */
export function amazonLocationFailure(provider: string, error: unknown, timeoutMs: number): ProviderFailed {
  const name = error instanceof Error ? error.name : 'Error';
  if (name === 'TimeoutError' || name === 'AbortError' || name === 'RequestTimeout')
    return new ProviderFailed(`${provider} did not answer within ${timeoutMs / 1000} s`, { cause: error });
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  const word = /^[A-Za-z]{1,60}$/.test(name) ? name : 'an error';
  return new ProviderFailed(status ? `${provider} answered HTTP ${status} (${word})` : `${provider} failed with ${word}`, { cause: error });
}
