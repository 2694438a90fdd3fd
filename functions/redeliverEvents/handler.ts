import { formatDateTime } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { getWebhook } from '../../shared/store/webhooks.ts';
import { redeliverEvent, redeliverSince } from '../../shared/webhooks/redelivery.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const webhook = await getWebhook(user.userUid, input.webhook_uid);
  if (input.event_id !== undefined) {
    return { webhook_uid: webhook.webhookUid, queued: await redeliverEvent(user.userUid, webhook, input.event_id), next_since: null };
  }
  const since = `${(input.since as string).replace(' ', 'T')}.000Z`;
  const { queued, nextSince } = await redeliverSince(user.userUid, webhook, since);
  return { webhook_uid: webhook.webhookUid, queued, next_since: nextSince === null ? null : formatDateTime(nextSince) };
});
