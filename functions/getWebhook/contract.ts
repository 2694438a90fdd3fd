import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { DEMO_WEBHOOK, WebhookRecord, webhookUid } from '../../shared/contracts/webhooks.ts';

const GetWebhookInput = v.object({ webhook_uid: webhookUid });

const GetWebhookOutput = v.object({ webhook: WebhookRecord });

export const contract = {
  name: 'getWebhook',
  method: 'GET',
  area: 'webhooks',
  tableActions: ['GetItem'],
  summary: 'One webhook endpoint',
  description:
    "One of the user's webhook endpoints by webhook_uid: what it receives, whether it is enabled (and why not), its last " +
    'success and since when it has been failing; never its secret.',
  input: GetWebhookInput,
  output: GetWebhookOutput,
  examples: {
    request: { webhook_uid: 1 },
    response: { webhook: DEMO_WEBHOOK },
  },
} as const satisfies OperationDeclaration;
