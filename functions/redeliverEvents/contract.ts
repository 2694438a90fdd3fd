import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { pageCursor } from '../../shared/contracts/paging.ts';
import { dateTimeParameter, described, integerField, nullableTextField } from '../../shared/contracts/primitives.ts';
import { EVENT_OR_SINCE, eventId, NOT_BOTH, webhookUid } from '../../shared/contracts/webhooks.ts';
import { EVENT_NOT_TAKEN, MAX_REDELIVERED, WEBHOOK_DISABLED } from '../../shared/domain/webhooks/attempt.ts';

const RedeliverEventsInput = v.pipe(
  v.object({
    webhook_uid: webhookUid,
    event_id: v.optional(eventId),
    since: v.optional(
      described(
        dateTimeParameter('since must be a date and time (yyyy-mm-dd hh:mm:ss)'),
        'Every event the endpoint takes appended to your feed from this time on, yyyy-mm-dd hh:mm:ss in GMT+0, in feed ' +
          `order, at most ${MAX_REDELIVERED} per call. Ignored with a cursor.`,
      ),
    ),
    cursor: pageCursor,
  }),
  v.check((input) => input.event_id !== undefined || input.since !== undefined || input.cursor !== undefined, EVENT_OR_SINCE),
  v.check((input) => input.event_id === undefined || (input.since === undefined && input.cursor === undefined), NOT_BOTH),
);

const RedeliverEventsOutput = v.object({
  webhook_uid: integerField,
  queued: v.pipe(integerField, v.description('events queued for delivery')),
  next_since: v.pipe(
    nullableTextField,
    v.description(
      'with since or cursor, when more may follow: the second of the last event read (sent as since, that second may ' +
        'come again); else null. next_cursor continues exactly.',
    ),
  ),
  next_cursor: v.pipe(
    nullableTextField,
    v.description(
      'with since or cursor, when more may follow: sent as cursor (with the same webhook_uid), the next call starts right ' +
        'after the last event read, however many share one second; else null.',
    ),
  ),
});

export const contract = {
  name: 'redeliverEvents',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['GetItem', 'Query'],
  summary: 'Queue events for an endpoint again: one event, or every one since a time',
  description:
    'Queues events of the last 30 days for delivery to the endpoint again, as new deliveries with the full retry schedule: ' +
    "the one named by event_id (an event of the user's feed that the endpoint's filters take), or every event the endpoint " +
    `takes appended to the user's feed from since on (at most ${MAX_REDELIVERED} read per call; next_cursor continues). ` +
    'Each carries its event_id in webhook-id as before, so a receiver that already has it can tell. A disabled endpoint is refused.',
  queuesDeliveries: true,
  input: RedeliverEventsInput,
  output: RedeliverEventsOutput,
  badRequests: [EVENT_OR_SINCE, NOT_BOTH],
  conflicts: [WEBHOOK_DISABLED, EVENT_NOT_TAKEN],
  notFound: 'event not found or not linked to this api key',
  examples: {
    request: { webhook_uid: 1, since: '2026-11-01 00:00:00' },
    response: { webhook_uid: 1, queued: 3, next_since: null, next_cursor: null },
  },
} as const satisfies OperationDeclaration;
