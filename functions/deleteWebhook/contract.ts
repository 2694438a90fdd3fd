import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { webhookUid } from '../../shared/contracts/webhooks.ts';
import { busyMessage } from '../../shared/errors.ts';

const DeleteWebhookInput = v.object({ webhook_uid: webhookUid });

const DeleteWebhookOutput = v.object({ webhook_uid: integerField });

export const contract = {
  name: 'deleteWebhook',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
  summary: 'Delete a webhook endpoint',
  description: 'Deletes a webhook endpoint: nothing more is delivered to it, in flight or queued, and its place among the 10 is free.',
  input: DeleteWebhookInput,
  output: DeleteWebhookOutput,
  conflicts: [busyMessage('webhook')],
  examples: {
    request: { webhook_uid: 1 },
    response: { webhook_uid: 1 },
  },
} as const satisfies OperationDeclaration;
