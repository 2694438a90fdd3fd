import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { DEMO_WEBHOOK, WebhookRecord } from '../../shared/contracts/webhooks.ts';

const GetWebhooksInput = v.object({});

const GetWebhooksOutput = v.object({ cnt: integerField, webhooks: v.array(WebhookRecord) });

export const contract = {
  name: 'getWebhooks',
  method: 'GET',
  area: 'webhooks',
  tableActions: ['Query'],
  summary: 'Your webhook endpoints',
  description: "The user's webhook endpoints by webhook_uid (at most 10), with their delivery state; never their secrets.",
  input: GetWebhooksInput,
  output: GetWebhooksOutput,
  examples: {
    request: {},
    response: { cnt: 1, webhooks: [DEMO_WEBHOOK] },
  },
} as const satisfies OperationDeclaration;
