import { config } from '../config.ts';
import { ProviderFailed } from '../errors.ts';

export const providerTimeoutMs = (): number => config.providerTimeoutMs();

/**
 * Calls a third-party provider. Its failures become a 502 envelope naming the provider and its status;
 * the URL (which may carry a provider key) is never put in a message or a log line. Several requests
 * that share one deadline (a map's tiles) pass its signal; `timeoutMs` is then the deadline's length.
 */
export async function providerRequest(
  provider: string,
  url: URL,
  timeoutMs = providerTimeoutMs(),
  headers: Record<string, string> = {},
  deadline = AbortSignal.timeout(timeoutMs),
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal: deadline, headers });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderFailed(timedOut ? `${provider} did not answer within ${timeoutMs / 1000} s` : `${provider} could not be reached`, {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderFailed(`${provider} answered HTTP ${response.status}`);
  }
  return response;
}

/** The provider's JSON object answer; a body that is not a JSON object is the provider's failure. */
export async function providerJson(
  provider: string,
  url: URL,
  timeoutMs = providerTimeoutMs(),
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const response = await providerRequest(provider, url, timeoutMs, headers);
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw unexpectedAnswer(provider);
}

export const unexpectedAnswer = (provider: string): ProviderFailed => new ProviderFailed(`${provider} gave an unexpected answer`);
