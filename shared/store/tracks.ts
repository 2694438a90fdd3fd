/**
 * What the positions pipeline reads and writes per vehicle: the vehicle by IMEI with its live record,
 * its users (whose locations name places), and one transaction per vehicle for the trips and fills a
 * (re-)detection replaces.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FuelFill } from '../domain/fuel-fill.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { dynamo, tableName } from './client.ts';
import { fuelFillItem } from './fuel-fills.ts';
import { keys } from './keys.ts';
import { batchGet, itemKey, queryAll, type TransactItems, transactWrite } from './requests.ts';
import { liveFromItem, liveItem, vehicleFromItem } from './vehicles.ts';

export interface TrackedVehicle {
  vehicle: Vehicle;
  /** the live record: the newest point processed so far */
  live: LiveState | undefined;
}

/** Vehicles of the given IMEIs with their live records: two BatchGetItem round trips for any number of IMEIs. */
export async function findTrackedVehicles(imeis: readonly string[]): Promise<Map<string, TrackedVehicle>> {
  const claims = await batchGet(imeis.map((imei) => keys.imeiClaim(imei)));
  const vehicleUids = claims.map((claim) => Number(claim.vehicle_uid));
  const items = await batchGet(vehicleUids.flatMap((uid) => [keys.vehicle(uid), keys.trackState(uid)]));
  const byKey = new Map(items.map((item) => [itemKey(item), item]));
  const found = new Map<string, TrackedVehicle>();
  for (const uid of vehicleUids) {
    const vehicleItem = byKey.get(itemKey(keys.vehicle(uid)));
    if (!vehicleItem) continue;
    const live = byKey.get(itemKey(keys.trackState(uid)))?.live as Record<string, unknown> | undefined;
    const vehicle = vehicleFromItem(vehicleItem);
    found.set(vehicle.imei, { vehicle, live: live ? liveFromItem(live) : undefined });
  }
  return found;
}

/** The users a vehicle is linked to, in user order. */
export async function listVehicleUsers(vehicleUid: number): Promise<number[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.vehicleUsers(vehicleUid).gsi1pk },
  });
  return items.map((item) => Number(item.user_uid));
}

/** What a detection changes: trips and fills are replaced as read, so each write is conditioned on what was read. */
export interface DetectionCommit {
  vehicleUid: number;
  /** set when the live record changes with it */
  live: LiveState | undefined;
  newTrips: Trip[];
  /** a stored trip re-detected with other figures or start: its old start is deleted when the start moved */
  changedTrips: Array<{ trip: Trip; previousStart: string }>;
  removedTrips: Array<{ startTime: string; tripUid: number }>;
  newFills: FuelFill[];
  /** fills re-detected with other figures; the slip_uid read is kept and must still be the stored one */
  changedFills: FuelFill[];
  removedFills: number[];
}

/** The most a transaction holds. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Writes a detection's changes for one vehicle in one transaction (several, in order, only when a re-detection
 * over days changes more than 100 items). A concurrent change of the same items cancels it (the batch is retried).
 * Answers the number of write requests.
 */
export async function commitDetection(commit: DetectionCommit): Promise<number> {
  const table = tableName();
  const tripKey = (trip: Trip) => keys.trip(trip.vehicleUid, trip.startTime);
  const items: TransactItems = [
    ...commit.removedTrips.map(({ startTime, tripUid }) => ({
      Delete: { TableName: table, Key: keys.trip(commit.vehicleUid, startTime), ConditionExpression: 'tripUid = :uid', ExpressionAttributeValues: { ':uid': tripUid } },
    })),
    ...commit.changedTrips
      .filter(({ trip, previousStart }) => trip.startTime !== previousStart)
      .map(({ trip, previousStart }) => ({
        Delete: { TableName: table, Key: keys.trip(commit.vehicleUid, previousStart), ConditionExpression: 'tripUid = :uid', ExpressionAttributeValues: { ':uid': trip.tripUid } },
      })),
    ...commit.changedTrips.map(({ trip, previousStart }) => ({
      Put: {
        TableName: table,
        Item: { ...tripKey(trip), ...trip },
        ...(trip.startTime === previousStart
          ? { ConditionExpression: 'tripUid = :uid', ExpressionAttributeValues: { ':uid': trip.tripUid } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    })),
    ...commit.newTrips.map((trip) => ({ Put: { TableName: table, Item: { ...tripKey(trip), ...trip }, ConditionExpression: 'attribute_not_exists(pk)' } })),
    ...commit.removedFills.map((eventUid) => ({
      Delete: { TableName: table, Key: keys.fuelFill(eventUid), ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(slip_uid)' },
    })),
    ...commit.changedFills.map((fill) => ({
      Put: {
        TableName: table,
        Item: fuelFillItem(fill),
        // addFuelFillSlip may have linked a slip since the fill was read: the transaction then fails and is retried
        ConditionExpression: fill.slipUid === null ? 'attribute_exists(pk) AND attribute_not_exists(slip_uid)' : 'slip_uid = :slip',
        ...(fill.slipUid === null ? {} : { ExpressionAttributeValues: { ':slip': fill.slipUid } }),
      },
    })),
    ...commit.newFills.map((fill) => ({ Put: { TableName: table, Item: fuelFillItem(fill), ConditionExpression: 'attribute_not_exists(pk)' } })),
    ...(commit.live ? [liveUpdate(commit.vehicleUid, commit.live)] : []),
  ];
  for (let i = 0; i < items.length; i += MAX_TRANSACTION_ITEMS) await transactWrite(items.slice(i, i + MAX_TRANSACTION_ITEMS));
  return items.length;
}

/** The live record moves only forward in GPS time; at the same time it may change (a re-detected odometer). */
export const liveUpdate = (vehicleUid: number, live: LiveState) => ({
  Update: {
    TableName: tableName(),
    Key: keys.trackState(vehicleUid),
    UpdateExpression: 'SET live = :live',
    ConditionExpression: 'attribute_not_exists(live) OR live.gps_datetime <= :gps',
    ExpressionAttributeValues: { ':live': liveItem(live), ':gps': live.gpsDatetime },
  },
});

/** The live record alone (a batch that found nothing): one plain conditional update, half a transaction's cost. */
export async function saveLive(vehicleUid: number, live: LiveState): Promise<number> {
  try {
    await dynamo().send(new UpdateCommand(liveUpdate(vehicleUid, live).Update));
  } catch (error) {
    // a newer point came in meanwhile (another invocation, or a live record set outside the pipeline)
    if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
  }
  return 1;
}
