import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { eventTypes, requiredUrl, URL_REFUSALS, vehicleUids, webhookDescription } from '../../shared/contracts/webhooks.ts';
import { TOO_MANY_WEBHOOKS } from '../../shared/domain/webhooks/webhook.ts';

const AddWebhookInput = v.object({
  url: requiredUrl,
  event_types: eventTypes,
  vehicle_uids: vehicleUids,
  description: webhookDescription,
});

const AddWebhookOutput = v.object({
  webhook_uid: integerField,
  secret: v.pipe(
    v.nullable(v.string()),
    v.description(
      'whsec_ + base64 of 32 random bytes: the signing key, shown only this once. A retry with the same Idempotency-Key ' +
        'answers it again only while it is still the current secret; once rotated or the webhook deleted, null (getWebhook ' +
        'tells which; rotateWebhookSecret makes a new one).',
    ),
  ),
});

export const contract = {
  name: 'addWebhook',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
  summary: 'Register an endpoint that receives the events of your vehicles, signed',
  idempotencyKey: true,
  secretFields: ['secret'],
  description:
    "Registers a URL to which the user's events are POSTed as they happen, signed the Standard Webhooks way (docs/webhooks.md). " +
    'event_types and vehicle_uids narrow what is delivered (absent: everything). Answers the signing secret, which is ' +
    `never shown again. At most 10 endpoints per user.`,
  input: AddWebhookInput,
  output: AddWebhookOutput,
  badRequests: URL_REFUSALS,
  conflicts: [TOO_MANY_WEBHOOKS],
  examples: {
    request: { url: 'http://localhost:8080/fleet-events', event_types: 'geofence.entered,geofence.exited', description: 'Dispatch board' },
    response: { webhook_uid: 1, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7bo4vJIJh1c=' },
  },
} as const satisfies OperationDeclaration;
