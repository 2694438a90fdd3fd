/**
 * Standard Webhooks signatures (standardwebhooks.com), made by the spec's own library rather than by hand: a
 * receiver verifies with any Standard Webhooks library, or with the few lines of HMAC in docs/webhooks.md.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 32 random bytes: the secret addWebhook and rotateWebhookSecret show once. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers of one delivery: `webhook-id` is the event's id on every attempt, so a receiver de-duplicates retries;
 * while a rotation overlaps, one `v1,` signature per secret, space-separated (the newest first).
 */
export function signDelivery(eventId: string, body: string, secrets: readonly string[], at: Date): SignedHeaders {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
