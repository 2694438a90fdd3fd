import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { webhookUid } from '../../shared/contracts/webhooks.ts';
import { busyMessage } from '../../shared/errors.ts';

const RotateWebhookSecretInput = v.object({ webhook_uid: webhookUid });

const RotateWebhookSecretOutput = v.object({
  webhook_uid: integerField,
  secret: v.pipe(v.string(), v.description('The new signing secret (whsec_ + base64 of 32 random bytes), shown only this once.')),
});

export const contract = {
  name: 'rotateWebhookSecret',
  method: 'POST',
  area: 'webhooks',
  tableActions: ['GetItem', 'UpdateItem'],
  summary: "Replace a webhook endpoint's signing secret, the old one still signing for 24 h",
  description:
    'Makes a new signing secret. For 24 hours every delivery carries two signatures, one with the new secret and one ' +
    'with the old, so the receiver can switch without losing an event; then only the new one signs. At most two secrets ' +
    'sign: a rotation within 24 h of the last retires the secret before the current one at once.',
  input: RotateWebhookSecretInput,
  output: RotateWebhookSecretOutput,
  secretFields: ['secret'],
  conflicts: [busyMessage('webhook')],
  examples: {
    request: { webhook_uid: 1 },
    response: { webhook_uid: 1, secret: 'whsec_3Y0kqA5bYQyOV6cXgB4xv2T6bqHqS2u7Yl2rU4l9Jqk=' },
  },
} as const satisfies OperationDeclaration;
