/**
 * The users' feeds (docs/events.md, "The feed" and "Storage"): each event is appended, in the transaction that
 * commits it, to the feed of every user who sees it (shared/domain/events/recipients.ts), under the user's next feed
 * sequence. The sequence comes from a counter item updated in the same transaction, conditioned on the value read, so
 * appends to one feed are serialised: the feed's order is commit order, without gaps or repeats, however late a commit
 * lands and whatever its events' timestamps say. The feed items are also what the webhook router reads from the stream.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { EVENT_RETENTION_S, type FleetEvent } from '../domain/events/event.ts';
import { recipientsOf } from '../domain/events/recipients.ts';
import { dynamo, tableName } from './client.ts';
import { vehicleLogPuts } from './events.ts';
import { keys } from './keys.ts';
import { batchGet, type Item, lostItems, queryRange, type TransactItems, transactWrite } from './requests.ts';
import { tableDefinition } from './table-definition.ts';
import { listVehicleUsers } from './vehicles.ts';

/** The feed items' entity: the webhook router's stream filter routes the INSERTs of these (and of nothing else). */
export const FEED_ENTITY = 'feed-event';

/** The most a transaction holds. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Appends that lost to another append to the same feed (its counter moved) are built again from a fresh read: each
 * round one of the racing commits wins, so this many rounds let this many commits of one user's vehicles race at once.
 */
const APPEND_ATTEMPTS = 25;

/** One event for one user's feed. */
export interface FeedEntry {
  userUid: number;
  event: FleetEvent;
}

type TransactItem = TransactItems[number];

/** The clock the appends read (tests move it to show that a clock behind the counter cannot reorder a feed). */
export type Clock = () => Date;

const systemClock: Clock = () => new Date();

/**
 * A feed item: the event as getEvents answers it (JSON text), with what the router and the filters read. `copied`
 * marks an event copied from a vehicle's log (vehicle link, the feed migration): it was emitted before, so the router
 * does not deliver it again.
 */
function feedItem(entry: FeedEntry, appendedAt: string, sequence: number, copied: boolean): Item {
  const { userUid, event } = entry;
  return {
    ...keys.feedEvent(userUid, appendedAt, sequence),
    ...keys.feedEventById(userUid, event.event_id),
    entity: FEED_ENTITY,
    user_uid: userUid,
    event: JSON.stringify(event),
    event_id: event.event_id,
    vehicle_uid: event.data.vehicle_uid,
    type: event.type,
    ...(copied ? { copied: 1 } : {}),
    [tableDefinition.ttlAttribute]: Math.floor(Date.parse(event.timestamp) / 1000) + EVENT_RETENTION_S,
  };
}

/** A feed item's event as its append stored it: JSON text written by JSON.stringify (feedItem), so JSON by construction. */
export const eventTextOfFeedItem = (item: Item): string => String(item.event);

export const eventOfFeedText = (text: string): FleetEvent => JSON.parse(text) as FleetEvent;

export const eventOfFeedItem = (item: Item): FleetEvent => eventOfFeedText(eventTextOfFeedItem(item));

interface Counter {
  sequence: number;
  appendedAt: string | null;
}

async function readCounters(userUids: readonly number[]): Promise<Map<number, Counter>> {
  const items = await batchGet(
    userUids.map((uid) => keys.feedCounter(uid)),
    { consistent: true },
  );
  return new Map(
    items.map((item) => [
      Number(String(item.pk).split('#')[1]),
      { sequence: Number(item.sequence), appendedAt: item.appended_at === undefined ? null : String(item.appended_at) },
    ]),
  );
}

/**
 * The writes that append entries to their users' feeds after the counters read: each user's entries numbered on from
 * its counter, stamped with the later of now and the counter's last appended_at (a clock behind another writer's
 * cannot put a later sequence before an earlier one), and the counter's update conditioned on the value read.
 */
function appendWrites(entries: readonly FeedEntry[], counters: Map<number, Counter>, now: Date, copied: boolean): TransactItems {
  const byUser = Map.groupBy(entries, (entry) => entry.userUid);
  return [...byUser].flatMap(([userUid, own]) => {
    const read = counters.get(userUid) ?? { sequence: 0, appendedAt: null };
    const clock = now.toISOString();
    const appendedAt = read.appendedAt !== null && read.appendedAt > clock ? read.appendedAt : clock;
    const puts: TransactItem[] = own.map((entry, n) => ({
      Put: {
        TableName: tableName(),
        Item: feedItem(entry, appendedAt, read.sequence + n + 1, copied),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }));
    const counter: TransactItem = {
      Update: {
        TableName: tableName(),
        Key: keys.feedCounter(userUid),
        UpdateExpression: 'SET #sequence = :next, appended_at = :at',
        ConditionExpression: read.sequence === 0 ? 'attribute_not_exists(#sequence)' : '#sequence = :read',
        ExpressionAttributeNames: { '#sequence': 'sequence' },
        ExpressionAttributeValues: {
          ':next': read.sequence + own.length,
          ':at': appendedAt,
          ...(read.sequence === 0 ? {} : { ':read': read.sequence }),
        },
      },
    };
    return [...puts, counter];
  });
}

/** One transaction of a commit: the commit's own writes, and the feed entries appended with them. */
interface Chunk {
  writes: TransactItem[];
  entries: FeedEntry[];
}

/**
 * A commit's transactions: its writes in order, then the feed entries, then `last` (the write whose condition decides
 * the commit, the track item's), at most MAX_TRANSACTION_ITEMS each, a feed's counter in every transaction holding
 * entries of that feed. A commit that fits one transaction is atomic; a larger one ends with `last` and the feed's
 * last entries, so a commit that fails half-way has appended some events (its retry appends them again) and never
 * loses one.
 */
export function planChunks(writes: readonly TransactItem[], entries: readonly FeedEntry[], last: TransactItem | undefined): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Chunk = { writes: [], entries: [] };
  let users = new Set<number>();
  const makeRoom = (slots: number) => {
    if (current.writes.length + current.entries.length + users.size + slots <= MAX_TRANSACTION_ITEMS) return;
    chunks.push(current);
    current = { writes: [], entries: [] };
    users = new Set();
  };
  for (const write of writes) {
    makeRoom(1);
    current.writes.push(write);
  }
  for (const entry of entries) {
    makeRoom(users.has(entry.userUid) ? 1 : 2);
    current.entries.push(entry);
    users.add(entry.userUid);
  }
  if (last) {
    makeRoom(1);
    current.writes.push(last);
  }
  if (current.writes.length + current.entries.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Writes one transaction, its entries numbered from the counters read now; when it lost only because another commit
 * appended to one of its feeds meanwhile, reads the counters again and retries. Any other failure is the commit's.
 */
async function writeChunk({ writes, entries }: Chunk, { copied, clock }: { copied: boolean; clock: Clock }): Promise<void> {
  const users = [...new Set(entries.map((entry) => entry.userUid))];
  for (let attempt = 1; ; attempt++) {
    const counters = users.length > 0 ? await readCounters(users) : new Map<number, Counter>();
    try {
      await transactWrite([...writes, ...appendWrites(entries, counters, clock(), copied)]);
      return;
    } catch (error) {
      const lost = lostItems(error);
      const onlyFeeds = lost?.some(Boolean) && lost.every((item, index) => !item || index >= writes.length);
      if (!onlyFeeds || attempt === APPEND_ATTEMPTS) throw error;
    }
  }
}

/** What a commit writes with its events: the events, each zone fact's audience (by event_id), and its own writes. */
export interface EventCommit {
  vehicleUid: number;
  events: readonly FleetEvent[];
  /** the user each zone fact's event is for, by event_id (emitAll's audiences); absent: a vehicle fact */
  audiences?: ReadonlyMap<string, number> | undefined;
  writes: readonly TransactItem[];
  /** the write whose condition decides the commit, in its last transaction */
  last?: TransactItem | undefined;
  clock?: Clock;
}

/**
 * Commits writes with their events appended to the feeds of the users who see them: the users linked to the vehicle
 * now (read here, at commit time), narrowed by each event's audience. Answers the number of write requests.
 */
export async function commitWithFeeds(commit: EventCommit): Promise<number> {
  const linked = commit.events.length > 0 ? await listVehicleUsers(commit.vehicleUid) : [];
  const entries = commit.events.flatMap((event) =>
    recipientsOf(commit.audiences?.get(event.event_id), linked).map((userUid) => ({ userUid, event })),
  );
  const chunks = planChunks(commit.writes, entries, commit.last);
  for (const chunk of chunks) await writeChunk(chunk, { copied: false, clock: commit.clock ?? systemClock });
  return chunks.reduce(
    (sum, chunk) => sum + chunk.writes.length + chunk.entries.length + new Set(chunk.entries.map((e) => e.userUid)).size,
    0,
  );
}

/** Events alone, committed as a detection commits them: in the vehicle's log and the feeds of the users who see them. */
export function commitEvents(
  vehicleUid: number,
  events: readonly FleetEvent[],
  { audiences, clock }: { audiences?: ReadonlyMap<string, number>; clock?: Clock } = {},
): Promise<number> {
  return commitWithFeeds({ vehicleUid, events, audiences, writes: vehicleLogPuts(events, audiences), ...(clock ? { clock } : {}) });
}

/**
 * Appends events copied from a vehicle's log to one user's feed, with `note` (where the copy stands) in the same
 * transaction, so a copy that stops half-way goes on from its note and never appends an event twice.
 */
export async function appendCopies(userUid: number, events: readonly FleetEvent[], note: TransactItem, clock = systemClock): Promise<void> {
  await writeChunk({ writes: [note], entries: events.map((event) => ({ userUid, event })) }, { copied: true, clock });
}

/** Where a feed read starts: from an instant on (`since`), or after the last item a read took (`after`, its sort key). */
export type FeedPosition = { since: string } | { after: string };

export interface FeedRead {
  /** which items the caller wants (its filters), judged on the item's own attributes */
  wanted: (item: Item) => boolean;
  /** the most items answered */
  limit: number;
  /** the most items read, wanted or not */
  bound: number;
}

/**
 * The user's feed from a position, strongly consistent (a poll never misses a commit it follows), reading no more
 * than `bound` items: the wanted ones up to `limit`, the position after the last item read, and whether more may
 * follow (the read stopped at `limit` or `bound` rather than at the feed's end). The first page asks
 * for `limit` items, so an unfiltered read reads no more than it answers; the filter is applied here rather than as a
 * FilterExpression (DynamoDB counts the items read either way) so the position passes the items it dropped too.
 */
export async function readFeed(
  userUid: number,
  from: FeedPosition,
  { wanted, limit, bound }: FeedRead,
): Promise<{ items: Item[]; position: FeedPosition; read: number; more: boolean }> {
  const range = keys.feedRange(userUid, from);
  const items: Item[] = [];
  let position = from;
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': range.pk, ':from': range.from },
        ConsistentRead: true,
        Limit: read === 0 ? limit : bound - read,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      read++;
      position = { after: String(item.sk) };
      if (wanted(item)) items.push(item);
      if (items.length === limit) return { items, position, read, more: true };
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && read < bound);
  return { items, position, read, more: startKey !== undefined };
}

/** The event of the user's feed with this event_id (the latest copy, should one have been appended twice). */
export async function findFeedEvent(userUid: number, eventId: string): Promise<FleetEvent | undefined> {
  const items = await queryRange(keys.feedEventByIdRange(userUid, eventId));
  const latest = items.sort((a, b) => String(a.sk).localeCompare(String(b.sk))).at(-1);
  return latest ? eventOfFeedItem(latest) : undefined;
}
