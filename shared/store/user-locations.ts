import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LatLng } from '../domain/geo.ts';
import { type LocationDetails, pointsText, type UserLocation } from '../domain/user-location.ts';
import { busyMessage, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextIds } from './counters.ts';
import { defineEntity, flag, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { isConditionFailed, queryRange, transactWrite, writeWithOptimisticRetry } from './requests.ts';

/** The user's locations by user_location_uid; `consistent` sees every change committed before it. */
export async function listUserLocations(userUid: number, { consistent = false } = {}): Promise<UserLocation[]> {
  const items = await queryRange(keys.userLocationRange(userUid), { ConsistentRead: consistent });
  return items.map(locationEntity.fromItem);
}

/** Where the user's locations stand: moved on by every change of them (0 before the first). */
export async function readLocationsVersion(userUid: number): Promise<number> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.userLocationsVersion(userUid), ConsistentRead: true }),
  );
  return Number(Item?.version ?? 0);
}

/** The version's move, written in the transaction of every change of the user's locations. */
export const locationsVersionUpdate = (userUid: number) => ({
  Update: {
    TableName: tableName(),
    Key: keys.userLocationsVersion(userUid),
    UpdateExpression: 'ADD version :one',
    ExpressionAttributeValues: { ':one': 1 },
  },
});

export function getUserLocation(userUid: number, userLocationUid: number): Promise<UserLocation> {
  return readLocation(userUid, userLocationUid, false);
}

/** An edit reads strongly consistently, as its retry must see the change that made its condition fail. */
async function readLocation(userUid: number, userLocationUid: number, consistent: boolean): Promise<UserLocation> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.userLocation(userUid, userLocationUid), ConsistentRead: consistent }),
  );
  if (!Item) throw NotFound.notLinked('location');
  return locationEntity.fromItem(Item);
}

export async function addUserLocation(userUid: number, details: LocationDetails): Promise<UserLocation> {
  const [location] = await numberLocations([details]);
  await transactWrite([{ Put: newLocationPut(userUid, location as UserLocation) }, locationsVersionUpdate(userUid)]);
  return location as UserLocation;
}

/** Ids for new locations, in one counter request. */
export async function numberLocations(drafts: readonly LocationDetails[]): Promise<UserLocation[]> {
  const ids = await nextIds('user-location', drafts.length);
  return drafts.map((details, i) => ({ ...details, userLocationUid: ids[i] as number }));
}

/** The Put of a new location, for a transaction that writes it with something else (addRoute). */
export function newLocationPut(userUid: number, location: UserLocation) {
  return {
    TableName: tableName(),
    Item: locationEntity.toItem(location, userUid),
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * Sets only the fields changed, so concurrent edits of different fields both survive. What changes may depend on
 * the location as read (a points-only edit of a point makes it a polygon), so the update is conditioned on the
 * shape read and a concurrent change of shape is read again.
 */
export async function editUserLocation(
  userUid: number,
  userLocationUid: number,
  changesFor: (current: UserLocation) => Partial<LocationDetails>,
): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => readLocation(userUid, userLocationUid, true),
    write: async (current) => {
      const update = locationEntity.update(changesFor(current));
      if (!update) return;
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.userLocation(userUid, userLocationUid),
            ...update,
            ConditionExpression: 'location_type = :seenType',
            ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':seenType': current.locationType },
          },
        },
        locationsVersionUpdate(userUid),
      ]);
    },
    busyMessage: busyMessage('location'),
  });
}

export async function deleteUserLocation(userUid: number, userLocationUid: number): Promise<void> {
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.userLocation(userUid, userLocationUid),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      locationsVersionUpdate(userUid),
    ]);
  } catch (error) {
    if (isConditionFailed(error)) throw NotFound.notLinked('location', { cause: error });
    throw error;
  }
}

/** Attribute names are the spec's field names; the item sits under its owner's partition. */
const locationEntity = defineEntity<UserLocation, number>({
  keys: (location, userUid) => keys.userLocation(userUid, location.userLocationUid),
  fields: {
    userLocationUid: number('user_location_uid'),
    description: text('description'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    icon: text('icon'),
    color: text('color'),
    radiusKm: number('radius'),
    locationType: { name: 'location_type', read: (value) => (value === 'polygon' ? 'polygon' : 'point') },
    points: { name: 'points', write: pointsText, read: (value) => (value ? (JSON.parse(String(value)) as LatLng[]) : []) },
    speedLimit: number('speed'),
    noGo: flag('no_go'),
    onlyPush: flag('only_push'),
  },
});
