/**
 * The users' feeds as the commits append them (shared/store/feed.ts), read back raw: each feed numbered 1, 2, 3, ...
 * in commit order, without gaps or repeats, whatever races and however many transactions a commit takes.
 */
import { describe, expect, it } from 'vitest';
import { commitEvents, type FeedPosition, readFeed } from '../../shared/store/feed.ts';
import type { Item } from '../../shared/store/requests.ts';
import { linkVehicle } from '../../shared/store/vehicles.ts';
import { aFleetEvent, givenUser, givenVehicle } from '../support/builders.ts';

/** Every item of the user's feed, in feed order. */
async function feedItems(userUid: number): Promise<Item[]> {
  const items: Item[] = [];
  let position: FeedPosition = { since: '2000-01-01T00:00:00.000Z' };
  for (;;) {
    const page = await readFeed(userUid, position, { wanted: () => true, limit: 1000, bound: 1000 });
    items.push(...page.items);
    if (!page.more) return items;
    position = page.position;
  }
}

const sequencesOf = (items: readonly Item[]) => items.map((item) => Number(String(item.sk).split('#')[1]));
const idsOf = (items: readonly Item[]) => items.map((item) => String(item.event_id));

describe("a user's feed", () => {
  it("takes a commit larger than one transaction whole, in every linked user's feed, numbered without a gap", async () => {
    // Prepare: a shared vehicle and a commit of 120 events (120 log items and 240 feed items: four transactions)
    const [owner, partner] = [await givenUser(), await givenUser()];
    const vehicle = await givenVehicle(owner);
    await linkVehicle(partner.userUid, vehicle.vehicleUid);
    const events = Array.from({ length: 120 }, (_, n) => aFleetEvent(vehicle, n + 1));
    // Act
    await commitEvents(vehicle.vehicleUid, events);
    // Assess
    for (const user of [owner, partner]) {
      const items = await feedItems(user.userUid);
      expect(idsOf(items)).toEqual(events.map((event) => event.event_id));
      expect(sequencesOf(items)).toEqual(events.map((_, n) => n + 1));
    }
  });

  it('numbers the commits of many vehicles racing for it 1 to N, each event once, each commit in one run', async () => {
    // Prepare
    const user = await givenUser();
    const vehicles = await Promise.all(Array.from({ length: 6 }, () => givenVehicle(user)));
    const commits = vehicles.flatMap((vehicle) =>
      Array.from({ length: 4 }, (_, c) => Array.from({ length: 5 }, (_, n) => aFleetEvent(vehicle, c * 5 + n + 1))),
    );
    // Act: the vehicles commit at once, each its commits in turn
    await Promise.all(
      vehicles.map(async (vehicle) => {
        for (const commit of commits.filter((events) => events[0]?.data.vehicle_uid === vehicle.vehicleUid))
          await commitEvents(vehicle.vehicleUid, commit);
      }),
    );
    // Assess
    const items = await feedItems(user.userUid);
    expect(sequencesOf(items)).toEqual(items.map((_, n) => n + 1));
    expect(new Set(idsOf(items))).toEqual(new Set(commits.flat().map((event) => event.event_id)));
    expect(items).toHaveLength(commits.flat().length);
    const position = new Map(idsOf(items).map((id, n) => [id, n]));
    for (const commit of commits) {
      const at = commit.map((event) => position.get(event.event_id) as number);
      expect(at).toEqual(at.map((_, n) => (at[0] as number) + n));
    }
  });

  it("keeps commit order when a committing clock is behind the feed's last append", async () => {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const [first, second] = [aFleetEvent(vehicle, 1), aFleetEvent(vehicle, 2)];
    await commitEvents(vehicle.vehicleUid, [first]);
    await commitEvents(vehicle.vehicleUid, [second], { clock: () => new Date(Date.now() - 3_600_000) });
    const items = await feedItems(user.userUid);
    expect(idsOf(items)).toEqual([first.event_id, second.event_id]);
    expect(String(items[1]?.sk) > String(items[0]?.sk)).toBe(true);
  });
});
