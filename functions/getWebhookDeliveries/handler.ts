import { toDeliveryAttemptRecord } from '../../shared/contracts/webhooks.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { readDeliveryAttempts } from '../../shared/store/webhook-attempts.ts';
import { getWebhook } from '../../shared/store/webhooks.ts';
import { contract } from './contract.ts';

/** The webhook's read and the log's Query in parallel (the log sits under the user's own key): one round trip after the key lookup. */
export const handler = operation(contract, async (context) => {
  const { user, input } = context;
  const page = await AnswerPage.open<ItemPosition>(context);
  const [webhook, read] = await Promise.allSettled([
    getWebhook(user.userUid, input.webhook_uid),
    readDeliveryAttempts(user.userUid, input.webhook_uid, input.event_id, page.reader(toDeliveryAttemptRecord)),
  ]);
  // a deleted webhook's attempts outlive it until their TTL: its 404 comes before whatever the read met
  if (webhook.status === 'rejected') throw webhook.reason;
  if (read.status === 'rejected') throw read.reason;
  return {
    webhook_uid: input.webhook_uid,
    cnt: page.size,
    deliveries: page.records<ReturnType<typeof toDeliveryAttemptRecord>>(),
    ...(await page.nextCursor()),
  };
});
