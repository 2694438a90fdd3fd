/**
 * What the positions pipeline reads and writes per vehicle: the vehicle by IMEI, its track state,
 * its users (whose locations name places), and one transaction per vehicle and batch for everything found.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { FuelFill } from '../domain/fuel-fill.ts';
import type { TrackState } from '../domain/tracking/detector.ts';
import type { Trip } from '../domain/trip.ts';
import type { LiveState, Vehicle } from '../domain/vehicle.ts';
import { dynamo, tableName } from './client.ts';
import { fuelFillItem } from './fuel-fills.ts';
import { keys } from './keys.ts';
import { batchGet, type Item, itemKey, queryAll } from './requests.ts';
import { liveItem, vehicleFromItem } from './vehicles.ts';

/** The track item: the detector's state plus what naming needs across batches (and the live record). */
export interface StoredTrack {
  /** absent while only a live record was set outside the pipeline */
  state: TrackState | undefined;
  /** the trip_uid of the trip that started at state.lastTripStart */
  lastTripUid: number | null;
  /** null before the pipeline's first commit */
  version: number | null;
}

export interface TrackedVehicle {
  vehicle: Vehicle;
  track: StoredTrack | undefined;
}

/** Vehicles of the given IMEIs with their track states: two BatchGetItem round trips for any number of IMEIs. */
export async function findTrackedVehicles(imeis: readonly string[]): Promise<Map<string, TrackedVehicle>> {
  const claims = await batchGet(imeis.map((imei) => keys.imeiClaim(imei)));
  const vehicleUids = claims.map((claim) => Number(claim.vehicle_uid));
  const items = await batchGet(vehicleUids.flatMap((uid) => [keys.vehicle(uid), keys.trackState(uid)]));
  const byKey = new Map(items.map((item) => [itemKey(item), item]));
  const found = new Map<string, TrackedVehicle>();
  for (const uid of vehicleUids) {
    const vehicleItem = byKey.get(itemKey(keys.vehicle(uid)));
    if (!vehicleItem) continue;
    const trackItem = byKey.get(itemKey(keys.trackState(uid)));
    const vehicle = vehicleFromItem(vehicleItem);
    found.set(vehicle.imei, { vehicle, track: trackItem ? trackFromItem(trackItem) : undefined });
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

export interface TrackCommit {
  vehicleUid: number;
  /** the version read; the write fails if another invocation moved the track on meanwhile */
  expectedVersion: number | null;
  track: { state: TrackState; lastTripUid: number | null };
  live: LiveState;
  trips: Trip[];
  fills: FuelFill[];
}

/** The most a transaction holds; the processor keeps each commit below it. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Writes a batch's findings for one vehicle atomically, conditioned on the track version read:
 * a replayed batch either finds nothing new or repeats a transaction that never committed.
 * Answers the number of items written (DynamoDB write requests).
 */
export async function commitTrack(commit: TrackCommit): Promise<number> {
  const version = (commit.expectedVersion ?? 0) + 1;
  const items = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.trackState(commit.vehicleUid), ...commit.track, live: liveItem(commit.live), version },
        ConditionExpression: commit.expectedVersion === null ? 'attribute_not_exists(version)' : 'version = :expected',
        ...(commit.expectedVersion === null ? {} : { ExpressionAttributeValues: { ':expected': commit.expectedVersion } }),
      },
    },
    ...commit.trips.map((trip) => ({ Put: { TableName: tableName(), Item: { ...keys.trip(trip.vehicleUid, trip.startTime), ...trip } } })),
    ...commit.fills.map((fill) => ({ Put: { TableName: tableName(), Item: fuelFillItem(fill) } })),
  ];
  if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`a track commit of ${items.length} items exceeds one transaction`);
  await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  return items.length;
}

function trackFromItem(item: Item): StoredTrack {
  return {
    state: item.state as TrackState | undefined,
    lastTripUid: item.lastTripUid === null || item.lastTripUid === undefined ? null : Number(item.lastTripUid),
    version: item.version === undefined ? null : Number(item.version),
  };
}
