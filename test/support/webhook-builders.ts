/** Webhooks made through the store, as addWebhook makes them, and their delivery log as the sender writes it. */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { DeliveryAttempt } from '../../shared/domain/webhooks/attempt.ts';
import type { Webhook, WebhookDetails } from '../../shared/domain/webhooks/webhook.ts';
import { recordDeliveryAttempt } from '../../shared/store/webhook-attempts.ts';
import { addWebhook, getWebhook } from '../../shared/store/webhooks.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import type { TestUser } from './builders.ts';
import { listenOnLoopback } from './loopback.ts';

/** A public address that the URL policy accepts without a DNS lookup: no test sends anything to it. */
export const PUBLIC_URL = 'https://93.184.215.14/fleet-events';

export async function givenWebhook(user: TestUser, details: Partial<WebhookDetails> = {}): Promise<Webhook & { secret: string }> {
  const secret = newWebhookSecret();
  const webhook = await addWebhook(
    user.userUid,
    { url: PUBLIC_URL, eventTypes: [], vehicleUids: [], description: 'Dispatch', ...details },
    secret,
    new Date(),
  );
  return { ...webhook, secret };
}

/** The webhook as stored, secrets included, to verify what a request changed or left unchanged. */
export const storedWebhook = (user: TestUser, webhookUid: number): Promise<Webhook> => getWebhook(user.userUid, webhookUid, true);

/** An attempt in the webhook's delivery log, as the sender records one. */
export async function givenDeliveryAttempt(
  user: TestUser,
  webhookUid: number,
  overrides: Partial<DeliveryAttempt> = {},
): Promise<DeliveryAttempt> {
  const attempt: DeliveryAttempt = {
    webhookUid,
    eventId: `evt_${randomBytes(16).toString('hex')}`,
    eventType: 'trip.started',
    attempt: 1,
    attemptedAt: new Date().toISOString(),
    statusCode: 500,
    error: null,
    durationMs: 12,
    state: 'retrying',
    nextAttemptAt: new Date(Date.now() + 5000).toISOString(),
    ...overrides,
  };
  await recordDeliveryAttempt(user.userUid, attempt);
  return attempt;
}

/** An http URL on 127.0.0.1 where nothing listens (a port the system gave and took back): an attempt is refused at once. */
export async function closedLocalUrl(): Promise<string> {
  const server = createServer();
  const { origin, close } = await listenOnLoopback(server);
  await close();
  return `${origin}/hooks`;
}
