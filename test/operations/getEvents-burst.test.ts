/**
 * A burst of 10,000 events walked through getEvents over real HTTP at limit 100 and 1,000: every event once, in one
 * stable order, with a cursor that stays under 1 KB; and at limit 1 through its first 1,000 events (fifty commits of
 * one second: a call each, where the whole burst would be 10,000 calls for the same cursor steps). The burst is
 * committed through the store as the pipeline commits events, five vehicles' commits in turn.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/store/api-keys.ts';
import { commitEvents } from '../../shared/store/feed.ts';
import { callOperation } from '../support/api.ts';
import { aFleetEvent, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';

const BURST = 10_000;
const VEHICLES = 5;
/** events a commit holds: with the vehicle log and the counter, one transaction */
const COMMIT = 20;
/**
 * The user’s keys the walk takes in turn: each key has a bucket of its own (150 a second), so the 1,000 calls of the
 * walk at limit 1 go as fast as the stack answers instead of waiting on one key's limit; a cursor is the user's.
 */
const KEYS = 4;

let user: TestUser;
let keys: string[];
let since: string;

beforeAll(async () => {
  user = await givenUser();
  keys = [user.key, ...(await Promise.all(Array.from({ length: KEYS - 1 }, () => createApiKey(user.userUid))))];
  since = new Date(Date.now() - 1000).toISOString().slice(0, 19).replace('T', ' ');
  const vehicles = await Promise.all(Array.from({ length: VEHICLES }, () => givenVehicle(user)));
  // every event stamped with one instant, as a commit of many stamps them
  const at = new Date();
  // the vehicles' commits take turns (racing commits are test/store/feed.test.ts's): the walk is what is tested here
  const perVehicle = vehicles.map((vehicle) => Array.from({ length: BURST / VEHICLES }, (_, n) => aFleetEvent(vehicle, n + 1, { at })));
  for (let i = 0; i < BURST / VEHICLES; i += COMMIT)
    for (const [index, vehicle] of vehicles.entries())
      await commitEvents(vehicle.vehicleUid, (perVehicle[index] as ReturnType<typeof aFleetEvent>[]).slice(i, i + COMMIT));
}, 600_000);

/** The events of the burst from `since` on, `limit` a call, until the feed is walked or `upTo` events are. */
async function walk(limit: number, upTo = BURST): Promise<{ ids: string[]; longestCursor: number }> {
  const ids: string[] = [];
  let longestCursor = 0;
  let cursor: string | undefined;
  for (let call = 0; ; call++) {
    const res = await callOperation('getEvents', { api_key: keys[call % KEYS], limit, ...(cursor ? { cursor } : { since }) });
    // a walk at limit 1 passes the key's rate limit: it waits as a client does, and asks again
    if (res.status === 429) {
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
      continue;
    }
    expect(res).toBeSuccess();
    const events = res.body.events;
    cursor = res.body.next_cursor;
    longestCursor = Math.max(longestCursor, String(cursor).length);
    if (events.length === 0) return { ids, longestCursor };
    ids.push(...events.map((event) => event.event_id));
    if (ids.length >= upTo) return { ids, longestCursor };
  }
}

describe('getEvents over a burst of 10,000 events', () => {
  it.each([1000, 100])(
    'walks every event once, in the same order, at limit %i, with a cursor under 1 KB',
    async (limit) => {
      const reference = await walk(1000);
      const { ids, longestCursor } = limit === 1000 ? reference : await walk(limit);
      expect(ids).toHaveLength(BURST);
      expect(new Set(ids).size).toBe(BURST);
      expect(ids).toEqual(reference.ids);
      expect(longestCursor).toBeLessThanOrEqual(1024);
    },
    900_000,
  );

  it('walks the first 1,000 events one a call, in the same order, with a cursor under 1 KB', async () => {
    const reference = await walk(1000);
    const { ids, longestCursor } = await walk(1, 1000);
    expect(ids).toEqual(reference.ids.slice(0, 1000));
    expect(longestCursor).toBeLessThanOrEqual(1024);
  }, 900_000);
});
