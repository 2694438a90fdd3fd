import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, integerField, optionalFlag } from '../../shared/contracts/primitives.ts';
import { eventTypes, optionalUrl, URL_REFUSALS, vehicleUids, webhookDescription, webhookUid } from '../../shared/contracts/webhooks.ts';
import { busyMessage } from '../../shared/errors.ts';

const EditWebhookInput = v.object({
  webhook_uid: webhookUid,
  url: optionalUrl,
  event_types: eventTypes,
  vehicle_uids: vehicleUids,
  description: webhookDescription,
  enabled: described(
    optionalFlag('enabled'),
    '1 delivers again (and clears disabled_reason and failing_since); 0 stops deliveries. Absent: unchanged.',
  ),
});

const EditWebhookOutput = v.object({ webhook_uid: integerField });

export const contract = {
  name: 'editWebhook',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem'],
  summary: 'Change a webhook endpoint, or enable it again',
  description:
    'Changes any of url, event_types, vehicle_uids and description; omitted fields keep their value (a blank event_types or ' +
    'vehicle_uids means every type or vehicle again). enabled=1 re-enables an endpoint the service disabled (its ' +
    'disabled_reason is cleared); enabled=0 stops deliveries to it.',
  input: EditWebhookInput,
  output: EditWebhookOutput,
  badRequests: URL_REFUSALS,
  conflicts: [busyMessage('webhook')],
  examples: {
    request: { webhook_uid: 1, description: 'Dispatch board (Midrand)' },
    response: { webhook_uid: 1 },
  },
} as const satisfies OperationDeclaration;
