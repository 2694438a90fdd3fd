/**
 * A user's webhook (docs/webhooks.md): where the user's events are delivered, which of them, and the
 * secrets they are signed with.
 */

/** At most this many webhooks per user: each event fans out to each of them. */
export const MAX_WEBHOOKS_PER_USER = 10;
export const TOO_MANY_WEBHOOKS = `at most ${MAX_WEBHOOKS_PER_USER} webhooks per user`;

/** How long a rotated-out secret still signs deliveries beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface SigningSecret {
  secret: string;
  /** ISO instant after which the secret no longer signs; absent for the current secret */
  retiresAt?: string;
}

export interface WebhookDetails {
  url: string;
  /** empty: every type */
  eventTypes: string[];
  /** empty: every vehicle of the user, those linked later included */
  vehicleUids: number[];
  description: string;
}

export interface Webhook extends WebhookDetails {
  webhookUid: number;
  enabled: boolean;
  disabledReason: string | null;
  /** ISO instants */
  createdAt: string;
  lastSuccessAt: string | null;
  failingSince: string | null;
  /** the newest first */
  secrets: SigningSecret[];
}

/** At most this many secrets sign a delivery: the current one and, during a rotation's overlap, the one before it. */
export const MAX_LIVE_SECRETS = 2;

/** The secrets that sign a delivery made at `now`: the current one and the previous one while inside its overlap. */
export const signingSecrets = (webhook: Pick<Webhook, 'secrets'>, now: Date): string[] =>
  webhook.secrets
    .filter((s) => s.retiresAt === undefined || Date.parse(s.retiresAt) > now.getTime())
    .slice(0, MAX_LIVE_SECRETS)
    .map((s) => s.secret);

/** The secret that signs from now on: the one addWebhook or the last rotateWebhookSecret answered. */
export const currentSecret = (webhook: { secrets: readonly SigningSecret[] }): string | undefined =>
  webhook.secrets.find((s) => s.retiresAt === undefined)?.secret;

/**
 * A rotation: the new secret first, the current one retiring after the overlap. A secret still inside an earlier
 * rotation's overlap retires at once, so a delivery never carries more than MAX_LIVE_SECRETS signatures.
 */
export function rotatedSecrets(secrets: readonly SigningSecret[], newSecret: string, now: Date): SigningSecret[] {
  const retiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const previous = currentSecret({ secrets });
  return [{ secret: newSecret }, ...(previous === undefined ? [] : [{ secret: previous, retiresAt }])];
}
