import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { DeliveryAttemptRecord, eventId, webhookUid } from '../../shared/contracts/webhooks.ts';

const GetWebhookDeliveriesInput = v.object({
  webhook_uid: webhookUid,
  event_id: v.optional(eventId),
  limit: pageLimit(),
  cursor: pageCursor,
});

const GetWebhookDeliveriesOutput = v.object({
  webhook_uid: integerField,
  cnt: integerField,
  deliveries: v.array(DeliveryAttemptRecord),
  next_cursor: nextCursorField,
});

export const contract = {
  name: 'getWebhookDeliveries',
  method: 'GET',
  area: 'webhooks',
  tableActions: ['GetItem', 'Query'],
  summary: "An endpoint's delivery attempts, newest first",
  description:
    'Every attempt to deliver to the endpoint in the last 30 days, newest first, or only those of one event (event_id): when ' +
    "it was made, the endpoint's status code or why there was none, how long it took, and where the delivery stands (the " +
    "next attempt's time while it is retried).",
  input: GetWebhookDeliveriesInput,
  output: GetWebhookDeliveriesOutput,
  examples: {
    request: { webhook_uid: 1, event_id: 'evt_5f0c6e1f2b7d4a9c8e3b1a0d9c8b7a6f', limit: 100, cursor: '' },
    response: {
      webhook_uid: 1,
      cnt: 1,
      deliveries: [
        {
          event_id: 'evt_5f0c6e1f2b7d4a9c8e3b1a0d9c8b7a6f',
          event_type: 'webhook.test',
          attempt: 1,
          attempted_datetime: '2026-11-26 10:00:00',
          status_code: 204,
          error: null,
          duration_ms: 38,
          state: 'delivered',
          next_attempt_datetime: null,
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
