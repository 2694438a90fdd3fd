/**
 * A user's webhook endpoint (docs/webhooks.md): where the user's events are delivered, which of them, and the
 * secrets they are signed with.
 */

/** At most this many endpoints per user: each event fans out to each of them. */
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

/** The secrets that sign a delivery made at `now`: the current one and any still inside its overlap. */
export const signingSecrets = (webhook: Pick<Webhook, 'secrets'>, now: Date): string[] =>
  webhook.secrets.filter((s) => s.retiresAt === undefined || Date.parse(s.retiresAt) > now.getTime()).map((s) => s.secret);

/** A rotation: the new secret first; the old current one retires after the overlap; already retired ones are dropped. */
export function rotatedSecrets(secrets: readonly SigningSecret[], newSecret: string, now: Date): SigningSecret[] {
  const retiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const kept = secrets
    .filter((s) => s.retiresAt === undefined || Date.parse(s.retiresAt) > now.getTime())
    .map((s) => (s.retiresAt === undefined ? { secret: s.secret, retiresAt } : s));
  return [{ secret: newSecret }, ...kept];
}
