/**
 * One delivery attempt against real receivers on 127.0.0.1: with the local policy (npm start's) where a loopback
 * receiver is allowed, and with the deployed policy where the same receiver must never be reached.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { DeliverableEvent } from '../../shared/domain/webhooks/attempt.ts';
import type { UrlPolicy } from '../../shared/domain/webhooks/url-policy.ts';
import { rotatedSecrets } from '../../shared/domain/webhooks/webhook.ts';
import { retryAfterSeconds, sendAttempt } from '../../shared/webhooks/attempt.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import { checkWebhookUrl, type Resolve } from '../../shared/webhooks/url-check.ts';
import { manualClock } from '../support/manual-clock.ts';
import { answerWith, receiversClosedAfterEach } from '../support/webhook-receiver.ts';

const LOCAL: UrlPolicy = { allowLocal: true };
const DEPLOYED: UrlPolicy = { allowLocal: false };

const anEvent = (eventId = 'evt_0123456789abcdef0123456789abcdef'): DeliverableEvent => ({
  event_id: eventId,
  type: 'trip.started',
  timestamp: '2026-11-26T10:00:00.000Z',
  data: { vehicle_uid: 7, occurred_at: '2026-11-26 09:59:58' },
});

const receiver = receiversClosedAfterEach();

/** Resolves once `condition` holds (what the receiver's side sees happens a moment after the sender's). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('sendAttempt to an endpoint that answers', () => {
  it("POSTs the event as JSON with headers the Standard Webhooks library's verify accepts", async () => {
    // Prepare
    const endpoint = await receiver();
    const secret = newWebhookSecret();
    const event = anEvent();
    // Act
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret }] }, event, { policy: LOCAL });
    // Assess
    expect(outcome).toEqual({ status_code: 204, duration_ms: expect.any(Number) });
    const [delivery] = endpoint.received;
    expect(delivery?.method).toBe('POST');
    expect(delivery?.path).toBe('/hooks');
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers['webhook-id']).toBe(event.event_id);
    expect(new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>)).toEqual(event);
  });

  it('signs with both secrets while a rotation overlaps, each verifying on its own', async () => {
    const endpoint = await receiver();
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const now = new Date();
    await sendAttempt({ url: endpoint.url, secrets: rotatedSecrets([{ secret: oldSecret }], newSecret, now) }, anEvent(), {
      now,
      policy: LOCAL,
    });
    const [delivery] = endpoint.received;
    const headers = delivery?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(delivery?.body ?? '', headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(delivery?.body ?? '', headers)).not.toThrow();
  });

  it("connects to the address it checked and keeps the URL's host in the Host header", async () => {
    const endpoint = await receiver();
    const url = endpoint.url.replace('127.0.0.1', 'localhost');
    const outcome = await sendAttempt({ url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    expect(outcome).toMatchObject({ status_code: 204 });
    expect(endpoint.received[0]?.headers.host).toBe(new URL(url).host);
  });

  it.each([400, 404, 410, 500])('answers the status %i as the outcome, not as an exception', async (status) => {
    const endpoint = await receiver(answerWith(status));
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    expect(outcome).toEqual({ status_code: status, duration_ms: expect.any(Number) });
  });

  it('does not follow a redirect: the 3xx is the outcome and its Location is never called', async () => {
    // Prepare
    const elsewhere = await receiver();
    const endpoint = await receiver(answerWith(307, { location: elsewhere.url }));
    // Act
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    // Assess
    expect(outcome).toMatchObject({ status_code: 307 });
    expect(endpoint.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it.each([
    [429, '120', 120],
    [503, '5', 5],
  ])('passes on the Retry-After of a %i', async (status, retryAfter, seconds) => {
    const endpoint = await receiver(answerWith(status, { 'retry-after': retryAfter }));
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    expect(outcome).toEqual({ status_code: status, duration_ms: expect.any(Number), retry_after_s: seconds });
  });

  it('ignores a Retry-After on a status that is not 429 or 503', async () => {
    const endpoint = await receiver(answerWith(500, { 'retry-after': '60' }));
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    expect(outcome).not.toHaveProperty('retry_after_s');
  });
});

describe('sendAttempt to an endpoint that does not answer', () => {
  it('gives up when its deadline passes, with a timeout error, and lets the connection go', async () => {
    // Prepare: the receiver reads the request and never answers
    let closed = false;
    const endpoint = await receiver((_, __, res) => {
      res.on('close', () => {
        closed = true;
      });
      return 'handled';
    });
    const clock = manualClock();
    // Act
    const sending = sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), {
      policy: LOCAL,
      timeoutMs: 10_000,
      deadline: clock.after(10_000),
    });
    await endpoint.waitFor(1);
    clock.advance(10_000);
    const outcome = await sending;
    // Assess
    expect(outcome).toEqual({ error: 'timed out after 10 s', duration_ms: expect.any(Number) });
    await until(() => closed);
  });

  it('counts a 2xx as delivered once its status line arrives, though its body never ends', async () => {
    // Prepare: 200 and a body that is never finished; the deadline never passes
    let closed = false;
    const endpoint = await receiver((_, __, res) => {
      res.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).write('still writing');
      return 'handled';
    });
    const clock = manualClock();
    // Act
    const outcome = await sendAttempt({ url: endpoint.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), {
      policy: LOCAL,
      deadline: clock.after(10_000),
    });
    // Assess: delivered, and the socket destroyed rather than read to an end that never comes
    expect(outcome).toEqual({ status_code: 200, duration_ms: expect.any(Number) });
    await until(() => closed);
  });

  it("bounds the host's lookup by the same deadline: a name server that never answers is a timeout, its query cancelled", async () => {
    // Prepare: a lookup that answers only when cancelled
    let asked: () => void = () => undefined;
    const lookedUp = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let cancelled = false;
    const neverAnswers: Resolve = (_host, signal) =>
      new Promise((_, reject) => {
        asked();
        signal.addEventListener('abort', () => {
          cancelled = true;
          reject(signal.reason);
        });
      });
    const clock = manualClock();
    // Act
    const sending = sendAttempt({ url: 'http://hooks.example:8080/hooks', secrets: [{ secret: newWebhookSecret() }] }, anEvent(), {
      policy: LOCAL,
      timeoutMs: 2500,
      deadline: clock.after(2500),
      resolve: neverAnswers,
    });
    await lookedUp;
    clock.advance(2500);
    // Assess
    expect(await sending).toEqual({ error: 'timed out after 2.5 s', duration_ms: expect.any(Number) });
    expect(cancelled).toBe(true);
  });

  it('says the connection was refused when nothing listens', async () => {
    const closed = await receiver();
    await closed.close();
    const outcome = await sendAttempt({ url: closed.url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: LOCAL });
    expect(outcome).toEqual({ error: 'connection refused', duration_ms: expect.any(Number) });
  });
});

describe('sendAttempt under the deployed policy', () => {
  it.each([
    ['http://127.0.0.1:{port}/hooks', 'url is not allowed: the scheme must be https'],
    ['https://127.0.0.1:{port}/hooks', 'url is not allowed: 127.0.0.1 is not a public address'],
    ['https://localhost/hooks', 'url is not allowed: localhost resolves to 127.0.0.1, which is not a public address'],
    ['https://localhost:{port}/hooks', 'url is not allowed: localhost resolves to 127.0.0.1, which is not a public address'],
    ['https://[::ffff:127.0.0.1]:{port}/hooks', 'url is not allowed: ::ffff:7f00:1 is not a public address'],
    ['https://169.254.169.254/latest/meta-data/', 'url is not allowed: 169.254.169.254 is not a public address'],
    ['https://10.0.0.5/hooks', 'url is not allowed: 10.0.0.5 is not a public address'],
    ['https://[::127.0.0.1]:{port}/hooks', 'url is not allowed: ::7f00:1 is not a public address'],
    ['https://93.184.215.14:{port}/hooks', 'url is not allowed: port {port} is not allowed (443 or 8443 only)'],
  ])('refuses %s without connecting', async (template, message) => {
    // Prepare: a receiver the URL would reach if the policy let it
    const endpoint = await receiver();
    const port = new URL(endpoint.origin).port;
    const url = template.replace('{port}', port);
    // Act
    const outcome = await sendAttempt({ url, secrets: [{ secret: newWebhookSecret() }] }, anEvent(), { policy: DEPLOYED });
    // Assess
    expect(outcome).toEqual({ error: message.replace('{port}', port), duration_ms: expect.any(Number) });
    expect(endpoint.received).toHaveLength(0);
  });
});

describe('checkWebhookUrl', () => {
  const resolvesTo =
    (...addresses: string[]): Resolve =>
    async () =>
      addresses;

  it.each([
    ['https://hooks.example.com:22/x', ['93.184.215.14'], 'port 22 is not allowed (443 or 8443 only)'],
    ['https://hooks.example.com/x', ['93.184.215.14', '10.0.0.7'], 'hooks.example.com resolves to 10.0.0.7, which is not a public address'],
    [
      'https://hooks.example.com/x',
      ['64:ff9b::a9fe:a9fe'],
      'hooks.example.com resolves to 64:ff9b::a9fe:a9fe, which is not a public address',
    ],
    ['https://hooks.example.com/x', [], 'hooks.example.com does not resolve'],
  ])('refuses %s resolving to %j in a deployed stack: %s', async (url, addresses, refusal) => {
    expect(await checkWebhookUrl(url, { policy: DEPLOYED, resolve: resolvesTo(...addresses) })).toEqual({ refusal });
  });

  it('connects to the first address of a host whose every address passes', async () => {
    const checked = await checkWebhookUrl('https://hooks.example.com:8443/x', {
      policy: DEPLOYED,
      resolve: resolvesTo('2606:4700:4700::1111', '93.184.215.14'),
    });
    expect(checked).toEqual({ url: new URL('https://hooks.example.com:8443/x'), address: '2606:4700:4700::1111' });
  });

  it('answers localhost and its subdomains as loopback without a name server (RFC 6761), any port under npm start', async () => {
    expect(await checkWebhookUrl('http://api.localhost:8080/x', { policy: LOCAL })).toMatchObject({ address: '127.0.0.1' });
    expect(await checkWebhookUrl('https://api.localhost/x', { policy: DEPLOYED })).toEqual({
      refusal: 'api.localhost resolves to 127.0.0.1, which is not a public address',
    });
  });
});

describe('retryAfterSeconds', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('reads delay-seconds and an HTTP date, and nothing else', () => {
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 10:01:00 GMT', now)).toBe(60);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
