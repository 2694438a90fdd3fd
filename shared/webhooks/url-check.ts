/**
 * A webhook URL checked against the URL policy, its host resolved: at add and edit, and again before every
 * delivery, so a DNS answer that later points at a private address is caught (the delivery connects to the address
 * checked here, never to a second lookup's). The lookup runs under the caller's deadline: a name server that never
 * answers costs the attempt its budget, nothing more.
 */
import { Resolver } from 'node:dns/promises';
import { config } from '../config.ts';
import { addressRefusal, hostToResolve, parseWebhookUrl, portOf, portRefusal, type UrlPolicy } from '../domain/webhooks/url-policy.ts';

export const urlPolicy = (): UrlPolicy => ({ allowLocal: config.webhookAllowLocalTargets() });

/** Every address a host resolves to (none when it does not resolve); rejects with the signal's reason once it aborts. */
export type Resolve = (host: string, signal: AbortSignal) => Promise<string[]>;

/** How long addWebhook and editWebhook wait for a host's addresses (their function has 10 s). */
export const HOST_LOOKUP_MS = 3000;

/** RFC 6761 §6.3: localhost and its subdomains are loopback, answered without asking a name server. */
const LOCALHOST = /^(?:.+\.)?localhost\.?$/i;

/**
 * A and AAAA from the name servers, through c-ares (dns.Resolver), not getaddrinfo (dns.lookup): a lookup that hangs
 * holds a thread of libuv's pool of four until the system gives up, so a few slow webhooks would stall every other
 * webhook's lookups (and the process's file and crypto work); a c-ares query holds nothing and is cancelled at the
 * deadline.
 */
export const resolveHost: Resolve = async (host, signal) => {
  if (LOCALHOST.test(host)) return ['127.0.0.1', '::1'];
  const resolver = new Resolver();
  const cancel = () => resolver.cancel();
  signal.throwIfAborted();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    signal.throwIfAborted();
    return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
  } finally {
    signal.removeEventListener('abort', cancel);
  }
};

export type CheckedUrl = { url: URL; address: string } | { refusal: string };

export interface CheckOptions {
  policy?: UrlPolicy;
  resolve?: Resolve;
  /** the caller's deadline (a delivery attempt's); without one, the lookup may take HOST_LOOKUP_MS */
  signal?: AbortSignal;
}

/** The URL and the address to connect to, or why not; rejects with the caller's signal's reason when it aborts first. */
export async function checkWebhookUrl(
  text: string,
  { policy = urlPolicy(), resolve = resolveHost, signal }: CheckOptions = {},
): Promise<CheckedUrl> {
  const parsed = parseWebhookUrl(text, policy);
  if ('refusal' in parsed) return parsed;
  const host = hostToResolve(parsed.url);
  if (host === undefined) return { url: parsed.url, address: parsed.url.hostname.replace(/^\[|\]$/g, '') };
  let addresses: string[];
  try {
    addresses = await resolve(host, signal ?? AbortSignal.timeout(HOST_LOOKUP_MS));
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const timedOut = (error as Error).name === 'TimeoutError';
    return { refusal: timedOut ? `${host} did not resolve within ${HOST_LOOKUP_MS / 1000} s` : `${host} does not resolve` };
  }
  // Every address must pass: a host with one public and one private answer could be steered to the private one.
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return { refusal: `${host} resolves to ${refusal.replace(/^(\S+) /, '$1, which ')}` };
    const closedPort = portRefusal(portOf(parsed.url), address, policy);
    if (closedPort) return { refusal: closedPort };
  }
  const [first] = addresses;
  if (!first) return { refusal: `${host} does not resolve` };
  return { url: parsed.url, address: first };
}
