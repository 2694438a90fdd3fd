import { formatDateTime } from '../../shared/domain/time.ts';
import { operation } from '../../shared/operation.ts';
import { openCursor, sealCursor } from '../../shared/paging/cursor.ts';
import { feedPositionOf } from '../../shared/paging/event-feed.ts';
import type { FeedPosition } from '../../shared/store/feed.ts';
import { getWebhook } from '../../shared/store/webhooks.ts';
import { redeliverEvent, redeliverFrom } from '../../shared/webhooks/redelivery.ts';
import { contract } from './contract.ts';

/** The instant a position stands at: the appended_at of the last event read, or the since it started from. */
const instantOf = (position: FeedPosition): string => ('after' in position ? position.after.split('#')[0] : position.since) as string;

export const handler = operation(contract, async ({ user, input, answer }) => {
  const scope = { operation: answer.operation, userUid: user.userUid, filters: { webhook_uid: input.webhook_uid } };
  const opened = input.cursor === undefined ? undefined : feedPositionOf((await openCursor<unknown>(scope, input.cursor)).position);
  const webhook = await getWebhook(user.userUid, input.webhook_uid);
  if (input.event_id !== undefined) {
    const queued = await redeliverEvent(user.userUid, webhook, input.event_id);
    return { webhook_uid: webhook.webhookUid, queued, next_since: null, next_cursor: null };
  }
  const position = opened ?? { since: `${(input.since as string).replace(' ', 'T')}.000Z` };
  const { queued, next } = await redeliverFrom(user.userUid, webhook, position);
  return {
    webhook_uid: webhook.webhookUid,
    queued,
    next_since: next === null ? null : formatDateTime(instantOf(next)),
    next_cursor: next === null ? null : await sealCursor(scope, { position: next, taken: 0 }),
  };
});
