import { toWebhookRecord } from '../../shared/contracts/webhooks.ts';
import { operation } from '../../shared/operation.ts';
import { getWebhook } from '../../shared/store/webhooks.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const webhook = await getWebhook(user.userUid, input.webhook_uid);
  return { webhook: toWebhookRecord(webhook) };
});
