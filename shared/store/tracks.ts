/**
 * What the positions pipeline reads and writes per vehicle: the vehicle by IMEI with its live record,
 * its users (whose locations name places), and one transaction per vehicle for the trips and fills a
 * (re-)detection replaces.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EmissionState } from '../domain/events/detection-events.ts';
import type { FleetEvent } from '../domain/events/event.ts';
import type { FuelFill } from '../domain/fuel-fill.ts';
import type { TrackState } from '../domain/tracking/detector.ts';
import { decodeChunk } from '../domain/tracking/history.ts';
import type { Position } from '../domain/tracking/position.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { dynamo, tableName } from './client.ts';
import { vehicleLogPuts } from './events.ts';
import { type Clock, commitWithFeeds } from './feed.ts';
import { fuelDropEntity, type StoredDrop } from './fuel-drops.ts';
import { fuelFillEntity } from './fuel-fills.ts';
import { type Key, keys } from './keys.ts';
import { batchGet, type Item, itemKey, type TransactItems } from './requests.ts';
import { tripEntity } from './trips.ts';
import { liveRecordEntity, vehicleEntity } from './vehicles.ts';

export interface TrackedVehicle {
  vehicle: Vehicle;
  /** the live record: the newest point processed so far */
  live: LiveState | undefined;
  /** the newest history not yet moved into a chunk (docs/positions-pipeline.md, "Position history") */
  tail: Position[];
  /** the tail as stored, to condition its next write on */
  storedTail: StoredTail | undefined;
  /**
   * counts the track item's writes by the pipeline (0: none yet): each is conditioned on the one read and moves it on,
   * so a container that made the last write knows the vehicle's history is still as it left it (shared/pipeline/kept-reads.ts)
   */
  revision: number;
  /** the detector's state as the pipeline stored it before position history existed: where such a vehicle goes on from */
  legacyState: TrackState | undefined;
  /** where the vehicle's event emission stands (shared/domain/events) */
  emission: EmissionState;
  /** when the service last took points for it (its wall clock), and what the quiet-vehicles check decided since */
  quiet: QuietState;
}

/** The quiet-vehicles check's view of a vehicle (docs/positions-pipeline.md, "Quiet vehicles"). */
export interface QuietState {
  /** UTC ISO: when the service last took a point for the vehicle (null: never, or before this was kept) */
  takenAt: string | null;
  /** the device.offline occurred_at while the vehicle is offline */
  offlineAt: string | null;
  /** the takenAt whose silence already had its open trip closed */
  tripClosedFor: string | null;
  /** UTC ISO: when the check is to look next (the `quiet` index's sort key); null: nothing is pending */
  due: string | null;
}

/** Points kept on the track item: `hour` is the hour their time offsets count from. */
export interface StoredTail {
  hour: string;
  points: string;
}

/**
 * The vehicle each IMEI's claim named when last read: a vehicle's item, read with its track item, says whether the
 * IMEI is still its own (an IMEI that moved, a vehicle deleted, are read from their claims again).
 */
const claimedBy = new Map<string, number>();
const MAX_CLAIMS_KEPT = 100_000;

/**
 * Vehicles of the given IMEIs with their live records: one BatchGetItem round trip for IMEIs whose vehicle is known,
 * two for the others (their claims first).
 */
export async function findTrackedVehicles(imeis: readonly string[]): Promise<Map<string, TrackedVehicle>> {
  const known = imeis.filter((imei) => claimedBy.has(imei));
  const found = await findTrackedVehiclesByUid(known.map((imei) => claimedBy.get(imei) as number));
  const unknown = imeis.filter((imei) => !found.has(imei));
  for (const imei of unknown) claimedBy.delete(imei);
  if (unknown.length === 0) return found;
  const claims = await batchGet(unknown.map((imei) => keys.imeiClaim(imei)));
  const claimed = await findTrackedVehiclesByUid(claims.map((claim) => Number(claim.vehicle_uid)));
  if (claimedBy.size + claimed.size > MAX_CLAIMS_KEPT) claimedBy.clear();
  for (const [imei, tracked] of claimed) {
    claimedBy.set(imei, tracked.vehicle.vehicleUid);
    found.set(imei, tracked);
  }
  return found;
}

/** Vehicles by vehicle_uid with their track items, by IMEI: one BatchGetItem round trip. */
export async function findTrackedVehiclesByUid(vehicleUids: readonly number[]): Promise<Map<string, TrackedVehicle>> {
  const items = await batchGet(vehicleUids.flatMap((uid) => [keys.vehicle(uid), keys.trackState(uid)]));
  const byKey = new Map(items.map((item) => [itemKey(item), item]));
  const found = new Map<string, TrackedVehicle>();
  for (const uid of vehicleUids) {
    const vehicleItem = byKey.get(itemKey(keys.vehicle(uid)));
    if (!vehicleItem) continue;
    const vehicle = vehicleEntity.fromItem(vehicleItem);
    found.set(vehicle.imei, trackedFromItem(vehicle, byKey.get(itemKey(keys.trackState(uid)))));
  }
  return found;
}

export function trackedFromItem(vehicle: Vehicle, item: Item | undefined): TrackedVehicle {
  const live = item?.live as Item | undefined;
  const storedTail = item?.tail === undefined ? undefined : { hour: String(item.tail_hour), points: String(item.tail) };
  return {
    vehicle,
    live: live ? liveRecordEntity.fromItem(live) : undefined,
    tail: storedTail ? decodeChunk(vehicle.imei, storedTail.hour, storedTail.points) : [],
    storedTail,
    revision: Number(item?.revision ?? 0),
    legacyState: item?.state as TrackState | undefined,
    emission: {
      sequence: Number(item?.event_sequence ?? 0),
      latestAt: item?.event_latest_at === undefined ? null : String(item.event_latest_at),
      reissues: (item?.event_reissues as EmissionState['reissues'] | undefined) ?? {},
    },
    quiet: {
      takenAt: item?.taken_at === undefined ? null : String(item.taken_at),
      offlineAt: item?.offline_at === undefined ? null : String(item.offline_at),
      tripClosedFor: item?.trip_closed_for === undefined ? null : String(item.trip_closed_for),
      due: item?.quiet_due === undefined ? null : String(item.quiet_due),
    },
  };
}

/** What a detection changes: trips and fills are replaced as read, so each write is conditioned on what was read. */
export interface DetectionCommit {
  vehicleUid: number;
  /** the track item's new live record and tail, when either changes */
  track: TrackUpdate | undefined;
  newTrips: Trip[];
  /** a stored trip re-detected with other figures or start: its old start is deleted when the start moved */
  changedTrips: Array<{ trip: Trip; previousStart: string }>;
  removedTrips: Array<{ startTime: string; tripUid: number }>;
  newFills: FuelFill[];
  /** fills re-detected with other figures; the slip_uid read is kept and must still be the stored one */
  changedFills: FuelFill[];
  removedFills: number[];
  /** fuel drops found anew or with other figures, and the starts of those re-detection no longer finds */
  savedDrops: StoredDrop[];
  removedDrops: string[];
  /** the events the detection decided, written with it so a batch that fails half-way emits nothing */
  events: FleetEvent[];
  /** the user each zone fact's event is for, by event_id (emitAll's audiences): the others go to every linked user */
  audiences?: ReadonlyMap<string, number>;
  /** the standing zone facts found and those no longer found (shared/store/zone-facts.ts) */
  zoneFacts?: { put: Item[]; remove: Key[] };
  /** the clock the feeds' appends read (the system's; tests commit at a time of their own) */
  clock?: Clock;
}

/**
 * Writes a detection's changes for one vehicle in one transaction with its events, appended to the feeds of the users
 * who see them (several transactions, in order, only when a re-detection over days changes more than 100 items). A
 * concurrent change of the same items cancels it (the batch is retried). Answers the number of write requests.
 */
export async function commitDetection(commit: DetectionCommit): Promise<number> {
  const table = tableName();
  const writes: TransactItems = [
    ...commit.removedTrips.map(({ startTime, tripUid }) => ({
      Delete: {
        TableName: table,
        Key: keys.trip(commit.vehicleUid, startTime),
        ConditionExpression: 'tripUid = :uid',
        ExpressionAttributeValues: { ':uid': tripUid },
      },
    })),
    ...commit.changedTrips
      .filter(({ trip, previousStart }) => trip.startTime !== previousStart)
      .map(({ trip, previousStart }) => ({
        Delete: {
          TableName: table,
          Key: keys.trip(commit.vehicleUid, previousStart),
          ConditionExpression: 'tripUid = :uid',
          ExpressionAttributeValues: { ':uid': trip.tripUid },
        },
      })),
    ...commit.changedTrips.map(({ trip, previousStart }) => ({
      Put: {
        TableName: table,
        Item: tripEntity.toItem(trip),
        ...(trip.startTime === previousStart
          ? { ConditionExpression: 'tripUid = :uid', ExpressionAttributeValues: { ':uid': trip.tripUid } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    })),
    ...commit.newTrips.map((trip) => ({
      Put: { TableName: table, Item: tripEntity.toItem(trip), ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    ...commit.removedFills.map((eventUid) => ({
      Delete: {
        TableName: table,
        Key: keys.fuelFill(eventUid),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(slip_uid)',
      },
    })),
    ...commit.changedFills.map((fill) => ({
      Put: {
        TableName: table,
        Item: fuelFillEntity.toItem(fill),
        // addFuelFillSlip may have linked a slip since the fill was read: the transaction then fails and is retried
        ConditionExpression: fill.slipUid === null ? 'attribute_exists(pk) AND attribute_not_exists(slip_uid)' : 'slip_uid = :slip',
        ...(fill.slipUid === null ? {} : { ExpressionAttributeValues: { ':slip': fill.slipUid } }),
      },
    })),
    ...commit.newFills.map((fill) => ({
      Put: { TableName: table, Item: fuelFillEntity.toItem(fill), ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    ...commit.removedDrops.map((at) => ({ Delete: { TableName: table, Key: keys.fuelDrop(commit.vehicleUid, at) } })),
    ...commit.savedDrops.map((drop) => ({ Put: { TableName: table, Item: fuelDropEntity.toItem(drop) } })),
    ...vehicleLogPuts(commit.events, commit.audiences),
    ...(commit.zoneFacts?.remove ?? []).map((key) => ({ Delete: { TableName: table, Key: key } })),
    ...(commit.zoneFacts?.put ?? []).map((item) => ({ Put: { TableName: table, Item: item } })),
  ];
  return commitWithFeeds({
    vehicleUid: commit.vehicleUid,
    events: commit.events,
    audiences: commit.audiences,
    writes,
    last: commit.track ? trackUpdate(commit.vehicleUid, commit.track) : undefined,
    ...(commit.clock ? { clock: commit.clock } : {}),
  });
}

export interface TrackUpdate {
  /** set when the live record changes */
  live: LiveState | undefined;
  /** the new tail; null moves it out (into chunks written before) */
  tail: StoredTail | null;
  /** the tail read: the write fails if another invocation changed it meanwhile */
  previousTail: StoredTail | undefined;
  /** the revision read: the write fails if another writer moved it meanwhile, and sets the next one */
  previousRevision: number;
  /** the vehicle's emission after this commit's events, set only if it is still the one read */
  emission?: { previous: EmissionState; next: EmissionState };
  /**
   * the batch took new points (docs/positions-pipeline.md, "Quiet vehicles"): when (the quiet-vehicles check looks from
   * then on, unless it already has a due time: it works out the real one from the settings it reads), and whether the
   * vehicle was offline and is back
   */
  taken?: { at: string; back: boolean };
}

/**
 * The track item's write: the live record moves only forward in GPS time (at the same time it may change: a
 * re-detected odometer); the tail is replaced only if it is still the one read.
 */
function trackUpdate(vehicleUid: number, { live, tail, previousTail, previousRevision, emission, taken }: TrackUpdate) {
  const sets = [
    'revision = :revision',
    ...(live ? ['live = :live'] : []),
    ...(tail ? ['tail = :tail', 'tail_hour = :tailHour'] : []),
    ...(emission ? ['event_sequence = :sequence', 'event_latest_at = :latestAt', 'event_reissues = :reissues'] : []),
    ...(taken
      ? ['taken_at = :takenAt', 'quiet_pk = if_not_exists(quiet_pk, :quietPk)', 'quiet_due = if_not_exists(quiet_due, :quietDue)']
      : []),
  ];
  const removes = [...(tail === null && previousTail ? ['tail', 'tail_hour'] : []), ...(taken?.back ? ['offline_at'] : [])];
  const update = `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`;
  const quietKey = taken ? keys.quietCheck(vehicleUid, taken.at) : undefined;
  const conditions = [
    ...(live ? ['(attribute_not_exists(live) OR live.gps_datetime <= :gps)'] : []),
    previousTail ? 'tail = :previousTail' : 'attribute_not_exists(tail)',
    previousRevision === 0 ? 'attribute_not_exists(revision)' : 'revision = :previousRevision',
    ...(emission ? [emission.previous.sequence === 0 ? 'attribute_not_exists(event_sequence)' : 'event_sequence = :previousSequence'] : []),
  ];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.trackState(vehicleUid),
      UpdateExpression: update,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: {
        ':revision': previousRevision + 1,
        ...(previousRevision === 0 ? {} : { ':previousRevision': previousRevision }),
        ...(live ? { ':live': liveRecordEntity.toItem(live), ':gps': live.gpsDatetime } : {}),
        ...(tail ? { ':tail': tail.points, ':tailHour': tail.hour } : {}),
        ...(previousTail ? { ':previousTail': previousTail.points } : {}),
        ...(emission
          ? { ':sequence': emission.next.sequence, ':latestAt': emission.next.latestAt, ':reissues': emission.next.reissues }
          : {}),
        ...(emission && emission.previous.sequence > 0 ? { ':previousSequence': emission.previous.sequence } : {}),
        ...(taken && quietKey ? { ':takenAt': taken.at, ':quietPk': quietKey.quiet_pk, ':quietDue': quietKey.quiet_due } : {}),
      },
    },
  };
}

/** The track item alone (a batch that found nothing): one plain conditional update, half a transaction's cost. */
export async function saveTrack(vehicleUid: number, update: TrackUpdate): Promise<number> {
  await dynamo().send(new UpdateCommand(trackUpdate(vehicleUid, update).Update));
  return 1;
}
