import { toWebhookRecord } from '../../shared/contracts/webhooks.ts';
import { operation } from '../../shared/operation.ts';
import { listWebhooks } from '../../shared/store/webhooks.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => {
  const webhooks = await listWebhooks(user.userUid);
  return { cnt: webhooks.length, webhooks: webhooks.map(toWebhookRecord) };
});
