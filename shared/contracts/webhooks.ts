/**
 * The webhook endpoint operations' parameters and record (docs/webhooks.md).
 */
import * as v from 'valibot';
import { EVENT_TYPES } from '../domain/events/event-types.ts';
import { formatDateTime } from '../domain/time.ts';
import { DELIVERY_STATES, type DeliveryAttempt } from '../domain/webhooks/attempt.ts';
import { urlNotAllowed } from '../domain/webhooks/url-policy.ts';
import type { Webhook } from '../domain/webhooks/webhook.ts';
import { described, flagField, integerField, nullableTextField, optionalText, requiredInteger, scalar } from './primitives.ts';

export const webhookUid = described(
  requiredInteger('webhook_uid'),
  "One of the user's webhooks (webhook_uid of addWebhook or getWebhooks).",
);

const URL_MAX = 2048;
const urlText = (message: string) =>
  v.pipe(
    scalar(message),
    v.check((text) => text.length <= URL_MAX, `url is too long (max ${URL_MAX} chars)`),
    v.metadata({ format: 'uri', maxLength: URL_MAX, pattern: '^https?://\\S+$' }),
  );
const URL_DESCRIPTION =
  'Where events are POSTed: https on port 443 or 8443, a host that is not and does not resolve to anything but a public ' +
  "unicast address (IANA's special-purpose IPv4 and IPv6 blocks are refused, an IPv4 inside IPv6 judged as that IPv4; " +
  'checked again at every delivery). Redirects are not followed.';

export const requiredUrl = described(v.pipe(urlText('url is required'), v.nonEmpty('url is required')), URL_DESCRIPTION);
export const optionalUrl = described(v.optional(v.pipe(urlText('url must be text'), v.nonEmpty('url must not be blank'))), URL_DESCRIPTION);

const EVENT_TYPES_MESSAGE = `event_types must be a comma-delimited list of: ${EVENT_TYPES.join(', ')}`;
/** Comma-delimited event types, blanks ignored: an empty list means every type. */
export const eventTypes = described(
  v.optional(
    v.pipe(
      scalar(EVENT_TYPES_MESSAGE),
      v.metadata({ pattern: '^[a-z_., ]*$' }),
      v.transform((text) =>
        text
          .split(',')
          .map((type) => type.trim())
          .filter((type) => type !== ''),
      ),
      v.check((types) => types.every((type) => (EVENT_TYPES as readonly string[]).includes(type)), EVENT_TYPES_MESSAGE),
      v.transform((types) => [...new Set(types)]),
    ),
  ),
  `Comma-delimited event types to deliver (${EVENT_TYPES.join(', ')}). Absent or blank: every type.`,
);

const VEHICLE_UIDS_MESSAGE = 'vehicle_uids must be a comma-delimited list of vehicle_uid';
/** Comma-delimited vehicle_uids, blanks ignored: an empty list means every vehicle of the user, those linked later too. */
export const vehicleUids = described(
  v.optional(
    v.pipe(
      scalar(VEHICLE_UIDS_MESSAGE),
      v.regex(/^[\d, ]*$/, VEHICLE_UIDS_MESSAGE),
      v.transform((text) =>
        text
          .split(',')
          .map((uid) => uid.trim())
          .filter((uid) => uid !== ''),
      ),
      v.check((uids) => uids.every((uid) => uid.length <= 15), VEHICLE_UIDS_MESSAGE),
      v.transform((uids) => [...new Set(uids.map(Number))]),
    ),
  ),
  "Comma-delimited vehicle_uids of vehicles linked to the key's user whose events are delivered. " +
    'Absent or blank: every vehicle of the user.',
);

export const webhookDescription = described(optionalText('description', 255), 'What the endpoint is, for the user.');

export const WebhookRecord = v.object({
  webhook_uid: integerField,
  url: v.string(),
  /** empty: every type */
  event_types: v.array(v.string()),
  /** empty: every vehicle */
  vehicle_uids: v.array(integerField),
  description: v.string(),
  enabled: flagField,
  disabled_reason: nullableTextField,
  created_datetime: v.string(),
  last_success_datetime: nullableTextField,
  failing_since: nullableTextField,
});

const dateTimeOrNull = (instant: string | null): string | null => (instant === null ? null : formatDateTime(instant));

/** A webhook as answered: never its secrets. Datetimes are GMT+0, yyyy-mm-dd hh:mm:ss. */
export const toWebhookRecord = (webhook: Webhook): v.InferOutput<typeof WebhookRecord> => ({
  webhook_uid: webhook.webhookUid,
  url: webhook.url,
  event_types: webhook.eventTypes,
  vehicle_uids: webhook.vehicleUids,
  description: webhook.description,
  enabled: webhook.enabled ? 1 : 0,
  disabled_reason: webhook.disabledReason,
  created_datetime: formatDateTime(webhook.createdAt),
  last_success_datetime: dateTimeOrNull(webhook.lastSuccessAt),
  failing_since: dateTimeOrNull(webhook.failingSince),
});

/**
 * The example webhook of the seeded demo's user: a receiver on the developer's machine (docs/webhooks.md's listens on
 * 8080), which npm start allows and a deployed stack refuses, so running the examples never sends the demo's events out.
 */
export const DEMO_WEBHOOK = {
  webhook_uid: 1,
  url: 'http://localhost:8080/fleet-events',
  event_types: ['geofence.entered', 'geofence.exited'],
  vehicle_uids: [],
  description: 'Dispatch board',
  enabled: 1,
  disabled_reason: null,
  created_datetime: '2026-03-02 08:00:00',
  last_success_datetime: null,
  failing_since: null,
} as const;

/** The 400s of addWebhook and editWebhook beyond the parameters' own: the reason follows the colon. */
export const URL_REFUSALS = [
  urlNotAllowed('the scheme must be https'),
  urlNotAllowed('169.254.169.254 is not a public address'),
  urlNotAllowed('internal.example resolves to 10.0.0.5, which is not a public address'),
  urlNotAllowed('internal.example does not resolve'),
  urlNotAllowed('port 8080 is not allowed (443 or 8443 only)'),
];

// ---- delivery (testWebhook, getWebhookDeliveries, redeliverEvents)

const EVENT_ID_MESSAGE = 'event_id must be an event_id (evt_ and 32 hex digits)';
/** An event's id as events and deliveries carry it (webhook-id). */
export const eventId = described(
  v.pipe(scalar(EVENT_ID_MESSAGE), v.regex(/^evt_[0-9a-f]{32}$/, EVENT_ID_MESSAGE)),
  'An event_id, as getEvents answers it and every delivery carries it in webhook-id.',
);

/** redeliverEvents takes one of the two. */
export const EVENT_OR_SINCE = 'event_id or since is required';
export const NOT_BOTH = 'send event_id or since, not both';

/** One attempt of the delivery log. Datetimes are GMT+0, yyyy-mm-dd hh:mm:ss. */
export const DeliveryAttemptRecord = v.object({
  event_id: v.string(),
  event_type: v.string(),
  attempt: v.pipe(integerField, v.description('1 for the first POST of the event to this endpoint; a redelivery starts again at 1')),
  attempted_datetime: v.string(),
  status_code: v.pipe(v.nullable(integerField), v.description("the endpoint's HTTP status; null when it gave none (see error)")),
  error: v.pipe(nullableTextField, v.description('why there was no status: a timeout, a refused connection, a URL no longer allowed')),
  duration_ms: integerField,
  state: v.pipe(
    v.picklist(DELIVERY_STATES),
    v.description(
      'delivered (a 2xx); retrying (next_attempt_datetime says when); failed (no attempt follows: redeliverEvents queues it again)',
    ),
  ),
  next_attempt_datetime: nullableTextField,
});

export const toDeliveryAttemptRecord = (attempt: DeliveryAttempt): v.InferOutput<typeof DeliveryAttemptRecord> => ({
  event_id: attempt.eventId,
  event_type: attempt.eventType,
  attempt: attempt.attempt,
  attempted_datetime: formatDateTime(attempt.attemptedAt),
  status_code: attempt.statusCode,
  error: attempt.error,
  duration_ms: attempt.durationMs,
  state: attempt.state,
  next_attempt_datetime: dateTimeOrNull(attempt.nextAttemptAt),
});
