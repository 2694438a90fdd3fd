import { rotatedSecrets } from '../../shared/domain/webhooks/webhook.ts';
import { operation } from '../../shared/operation.ts';
import { editWebhook } from '../../shared/store/webhooks.ts';
import { newWebhookSecret } from '../../shared/webhooks/signing.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const secret = newWebhookSecret();
  await editWebhook(user.userUid, input.webhook_uid, (current) => ({ secrets: rotatedSecrets(current.secrets, secret, new Date()) }));
  return { webhook_uid: input.webhook_uid, secret };
});
