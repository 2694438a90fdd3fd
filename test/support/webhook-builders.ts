/** Webhooks made through the store, as addWebhook makes them. */
import type { Webhook, WebhookDetails } from '../../shared/domain/webhooks/webhook.ts';
import { addWebhook, getWebhook } from '../../shared/store/webhooks.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import type { TestUser } from './builders.ts';

/** A public address that the target policy accepts without a DNS lookup: no test sends anything to it. */
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
