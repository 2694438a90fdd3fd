/**
 * The events feed's walk (docs/events.md, "The feed"): the user's own feed read from a position, narrowed by vehicles
 * and types. The feed's order is commit order (shared/store/feed.ts), so a position is one sort key: the cursor stays
 * the same size whatever happened, and a commit that lands late is appended after every position already answered.
 */

import { INVALID_CURSOR } from '../contracts/paging.ts';
import { BadRequest } from '../errors.ts';
import { eventTextOfFeedItem, type FeedPosition, readFeed } from '../store/feed.ts';
import type { Item } from '../store/requests.ts';

/** A call reads at most max(limit, READ_FLOOR) items: a narrow filter still moves a small page on by this many. */
export const READ_FLOOR = 100;

export interface FeedFilter {
  /** only these vehicles' events (undefined: every vehicle) */
  vehicleUids?: readonly number[] | undefined;
  /** only these types (undefined: every type) */
  types?: readonly string[] | undefined;
}

const wantedBy =
  ({ vehicleUids, types }: FeedFilter) =>
  (item: Item): boolean =>
    (vehicleUids === undefined || vehicleUids.includes(Number(item.vehicle_uid))) &&
    (types === undefined || types.includes(String(item.type)));

/**
 * The user's events after `position` that the filter takes, at most `limit`, and where the next call starts. The events
 * are their stored JSON texts: getEvents answers them as they are (parsing each and writing it again was a fifth of a
 * page's time), redelivery parses them (eventOfFeedText).
 */
export async function readEventFeed(
  userUid: number,
  position: FeedPosition,
  filter: FeedFilter,
  limit: number,
): Promise<{ eventTexts: string[]; position: FeedPosition; read: number; more: boolean }> {
  const feed = await readFeed(userUid, position, { wanted: wantedBy(filter), limit, bound: Math.max(limit, READ_FLOOR) });
  return { eventTexts: feed.items.map(eventTextOfFeedItem), position: feed.position, read: feed.read, more: feed.more };
}

const FEED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z(#\d{12})?$/;

/** A position opened from a cursor: one this version sealed, else the cursor is not valid (a cursor of the earlier feed). */
export function feedPositionOf(sealed: unknown): FeedPosition {
  const { since, after } = (sealed ?? {}) as { since?: unknown; after?: unknown };
  if (typeof after === 'string' && FEED_KEY.test(after)) return { after };
  if (typeof since === 'string' && FEED_KEY.test(since)) return { since };
  throw new BadRequest(INVALID_CURSOR);
}
