/**
 * One signed delivery attempt (docs/webhooks.md): the event object POSTed as JSON with the Standard Webhooks headers.
 * The URL is checked against the URL policy again now, every address its host resolves to, and the connection goes
 * to the address checked (the Host header and TLS name stay the URL's host), so a DNS answer that changed since the
 * webhook was added, or changes between a check and a connect, never reaches a private address. Redirects are not
 * followed: a 3xx is the receiver's answer. The receiver's failures are outcomes, never exceptions.
 */
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type { DeliverableEvent } from '../domain/webhooks/attempt.ts';
import { type UrlPolicy, urlNotAllowed } from '../domain/webhooks/url-policy.ts';
import { signingSecrets, type Webhook } from '../domain/webhooks/webhook.ts';
import { signDelivery } from './signing.ts';
import { checkWebhookUrl, type Resolve } from './url-check.ts';

/**
 * Required, not imported: Node's ES module facade of node:http reads every export at import, and its `WebSocket` and
 * fetch getters load undici, 9 ms of CPU at each cold start of a sender (docs/operations.md, Cold starts).
 */
const { request: httpRequest } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/** An attempt that has no answer within this long is a timeout (and retried). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How an attempt ended: the receiver's status code, or why there was none; and how long it took. */
export type AttemptOutcome =
  | { status_code: number; duration_ms: number /** seconds a 429 or 503 asked to wait (Retry-After) */; retry_after_s?: number }
  | { error: string; duration_ms: number };

export interface AttemptOptions {
  /** the attempt's instant: its webhook-timestamp and which secrets still sign */
  now?: Date;
  /** the attempt's budget, as the error of one that runs out says it */
  timeoutMs?: number;
  /** aborts when the budget is spent (the sender's clock); by default timeoutMs from now */
  deadline?: AbortSignal;
  policy?: UrlPolicy;
  resolve?: Resolve;
}

/** Statuses whose Retry-After the retry schedule honours. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * One deadline bounds the whole attempt, the host's lookup, the connection, TLS and the answer's status line: once it
 * aborts, the lookup is cancelled or the socket destroyed, whichever is under way.
 */
export async function sendAttempt(
  webhook: Pick<Webhook, 'url' | 'secrets'>,
  event: DeliverableEvent,
  { now = new Date(), timeoutMs = DELIVERY_TIMEOUT_MS, deadline = AbortSignal.timeout(timeoutMs), policy, resolve }: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    const target = await checkWebhookUrl(webhook.url, { ...(policy ? { policy } : {}), ...(resolve ? { resolve } : {}), signal: deadline });
    if ('refusal' in target) return { error: urlNotAllowed(target.refusal), duration_ms: elapsed() };
    const body = JSON.stringify(event);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'fleet-tracking-webhooks/1',
      host: target.url.host,
      ...signDelivery(event.event_id, body, signingSecrets(webhook, now), now),
    };
    const response = await post(target.url, target.address, headers, body, deadline);
    const retryAfter = RETRY_AFTER_STATUSES.has(response.statusCode) ? retryAfterSeconds(response.retryAfter, now) : undefined;
    return { status_code: response.statusCode, duration_ms: elapsed(), ...(retryAfter === undefined ? {} : { retry_after_s: retryAfter }) };
  } catch (error) {
    const failure = deadline.aborted ? `timed out after ${Math.round(timeoutMs / 100) / 10} s` : describeFailure(error);
    return { error: failure, duration_ms: elapsed() };
  }
}

/**
 * POSTs to `address` (never a second lookup of the host), with no connection pool (a pooled socket could be one to
 * an address checked earlier), and settles on the status line and headers: the body is never read, the socket is
 * destroyed at once, so a 2xx whose body never ends is delivered all the same.
 */
function post(
  url: URL,
  address: string,
  headers: Record<string, string>,
  body: string,
  deadline: AbortSignal,
): Promise<{ statusCode: number; retryAfter: string | undefined }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({
      host: address,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      signal: deadline,
      // the certificate is checked against the URL's host, as a browser would; an IP address is sent as no name
      ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
    });
    req.on('error', reject);
    req.on('response', (response: IncomingMessage) => {
      resolve({ statusCode: response.statusCode ?? 0, retryAfter: headerText(response.headers['retry-after']) });
      req.destroy();
    });
    req.end(body);
  });
}

const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Retry-After in seconds: delay-seconds, or an HTTP date from `now`; undefined when it is neither. */
export function retryAfterSeconds(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** The attempt's error as the delivery log shows it: short, and the same words for the same failure. */
function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'EPIPE':
      return 'connection closed';
    default:
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
        return `TLS failed: ${(error as Error).message}`;
      return code ? `connection failed: ${code}` : `connection failed: ${(error as Error).message}`;
  }
}
