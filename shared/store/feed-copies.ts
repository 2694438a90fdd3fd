/**
 * Copies of a vehicle's stored events into a user's feed (docs/events.md, "Who sees an event"; docs/operations.md,
 * "Moving events into feeds"): `vehicle link` gives a newly linked user the vehicle facts of the retained 30 days, as
 * getTrips shows it the vehicle's trips; the feed migration gives every user the events stored in vehicles' partitions
 * before feeds existed, under the tenant rule. Each copy goes on from a note of how far it got, written in the
 * transaction of the events it copied, so it may be run again (or stop half-way) without appending an event twice.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FleetEvent } from '../domain/events/event.ts';
import { receivesStoredEvent } from '../domain/events/recipients.ts';
import { dynamo, tableName } from './client.ts';
import { eventOfItem, listVehicleLog, STORED_BEFORE_FEEDS_ENTITY, VEHICLE_LOG_ENTITY } from './events.ts';
import { appendCopies, MAX_TRANSACTION_ITEMS } from './feed.ts';
import { keys } from './keys.ts';
import type { Item } from './requests.ts';
import { tableDefinition } from './table-definition.ts';
import { listUserLocations } from './user-locations.ts';
import { listVehicleLinks, listVehicleUsers } from './vehicles.ts';

/** Log items read per transaction: with the feed's counter and the copy's note, a page fits one transaction. */
const COPY_PAGE = MAX_TRANSACTION_ITEMS - 2;

/** Whether a user takes an item of the vehicle's log, given the events of the log read before it (a void's fact is among them). */
type Receives = (event: FleetEvent, item: Item, earlier: ReadonlyMap<string, FleetEvent>) => boolean;

export interface CopyOutcome {
  copied: number;
  /** log items the user does not take (another user's zone facts, events already appended by their commit, expired ones) */
  skipped: number;
}

/** Where a copy stands: the last log sort key it copied, and the instant after which it copies nothing (its first run's). */
interface CopyNote {
  through: string | undefined;
  until: string;
}

async function readCopyNote(userUid: number, vehicleUid: number, now: Date): Promise<CopyNote> {
  const { Item: note } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.feedCopy(userUid, vehicleUid), ConsistentRead: true }),
  );
  return {
    through: note?.through === undefined ? undefined : String(note.through),
    until: note?.until === undefined ? now.toISOString() : String(note.until),
  };
}

/** The note's move from where the copy read it to the last log item copied: a copy running beside this one loses. */
const copyNote = (userUid: number, vehicleUid: number, read: CopyNote, through: string) => ({
  Update: {
    TableName: tableName(),
    Key: keys.feedCopy(userUid, vehicleUid),
    UpdateExpression: 'SET through = :through, #until = :until',
    ConditionExpression: read.through === undefined ? 'attribute_not_exists(through)' : 'through = :read',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: {
      ':through': through,
      ':until': read.until,
      ...(read.through === undefined ? {} : { ':read': read.through }),
    },
  },
});

/**
 * Copies the vehicle's log into the user's feed from the copy's note on: the retained events `receives` takes, in log
 * order, emitted up to the first run's instant (what was emitted after it reached the feed through its own commit).
 */
async function copyVehicleLog(userUid: number, vehicleUid: number, receives: Receives, now = new Date()): Promise<CopyOutcome> {
  const outcome: CopyOutcome = { copied: 0, skipped: 0 };
  const earlier = new Map<string, FleetEvent>();
  const retainedAfter = Math.floor(now.getTime() / 1000);
  let note = await readCopyNote(userUid, vehicleUid, now);
  for (;;) {
    const read = await listVehicleLog(vehicleUid, note.through, COPY_PAGE);
    const items = read.filter((item) => eventOfItem(item).timestamp <= note.until);
    const last = items.at(-1);
    if (last === undefined) return outcome;
    const taken = items.flatMap((item) => {
      const event = eventOfItem(item);
      const take = Number(item[tableDefinition.ttlAttribute]) > retainedAfter && receives(event, item, earlier);
      earlier.set(event.event_id, event);
      return take ? [event] : [];
    });
    await appendCopies(userUid, taken, copyNote(userUid, vehicleUid, note, String(last.sk)));
    outcome.copied += taken.length;
    outcome.skipped += items.length - taken.length;
    note = { ...note, through: String(last.sk) };
    if (read.length < COPY_PAGE || items.length < read.length) return outcome;
  }
}

/**
 * A newly linked user's feed takes the vehicle's retained vehicle facts (never another user's zone facts): those of
 * the vehicle's log, and those stored before feeds that are not about a zone. Run right after the link is written.
 */
export function copyVehicleFactsOnLink(userUid: number, vehicleUid: number): Promise<CopyOutcome> {
  const notZone = { ownsZone: () => false, soleUser: false };
  return copyVehicleLog(
    userUid,
    vehicleUid,
    (event, item, earlier) =>
      item.entity === VEHICLE_LOG_ENTITY || receivesStoredEvent(event, { ...notZone, voidedEvent: (id) => earlier.get(id) }),
  );
}

/**
 * The feed migration for one user: for each vehicle linked to the user, the events stored before feeds existed that
 * the tenant rule gives the user (its vehicle facts, and the facts of the user's own zones; events appended by their
 * own commit are in the feeds already).
 */
export async function copyStoredEventsFor(userUid: number): Promise<CopyOutcome & { vehicles: number }> {
  const [links, locations] = await Promise.all([listVehicleLinks(userUid), listUserLocations(userUid)]);
  const ownZones = new Set(locations.map((location) => location.userLocationUid));
  const outcome = { copied: 0, skipped: 0, vehicles: links.length };
  for (const { vehicleUid } of links) {
    const soleUser = (await listVehicleUsers(vehicleUid)).length === 1;
    const copy = await copyVehicleLog(
      userUid,
      vehicleUid,
      (event, item, earlier) =>
        item.entity === STORED_BEFORE_FEEDS_ENTITY &&
        receivesStoredEvent(event, { voidedEvent: (id) => earlier.get(id), ownsZone: (zone) => ownZones.has(zone), soleUser }),
    );
    outcome.copied += copy.copied;
    outcome.skipped += copy.skipped;
  }
  return outcome;
}
