import { operation } from '../../shared/operation.ts';
import { deleteWebhook } from '../../shared/store/webhooks.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteWebhook(user.userUid, input.webhook_uid);
  return { webhook_uid: input.webhook_uid };
});
