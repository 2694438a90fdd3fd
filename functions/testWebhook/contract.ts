import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField, nullableTextField } from '../../shared/contracts/primitives.ts';
import { webhookUid } from '../../shared/contracts/webhooks.ts';
import { TEST_DELIVERY_TIMEOUT_MS } from '../../shared/domain/webhooks/attempt.ts';

const TestWebhookInput = v.object({ webhook_uid: webhookUid });

const TestWebhookOutput = v.object({
  webhook_uid: integerField,
  event_id: v.pipe(v.string(), v.description("the test event's id: its webhook-id header and its entry in getWebhookDeliveries")),
  status_code: v.pipe(v.nullable(integerField), v.description("the endpoint's HTTP status; null when it gave none (see error)")),
  error: v.pipe(nullableTextField, v.description('why there was no status: a timeout, a refused connection, a URL no longer allowed')),
  duration_ms: v.pipe(integerField, v.description('from the start of the attempt (the URL check included) to the end of the answer')),
});

export const contract = {
  name: 'testWebhook',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['GetItem', 'PutItem'],
  summary: 'Send a webhook.test event to an endpoint now and answer how it answered',
  description:
    'POSTs a `webhook.test` event to the endpoint now, signed like every delivery (the URL checked again first, no redirect ' +
    `followed, at most ${TEST_DELIVERY_TIMEOUT_MS / 1000} s), and answers the endpoint's status code, or why there was none, and ` +
    "the time it took. The attempt is in getWebhookDeliveries; it is never retried, and it changes neither the endpoint's " +
    'state nor its last success. A disabled endpoint is tested too, so it can be checked before it is enabled again.',
  input: TestWebhookInput,
  output: TestWebhookOutput,
  examples: {
    request: { webhook_uid: 1 },
    response: { webhook_uid: 1, event_id: 'evt_5f0c6e1f2b7d4a9c8e3b1a0d9c8b7a6f', status_code: 204, error: null, duration_ms: 38 },
  },
} as const satisfies OperationDeclaration;
