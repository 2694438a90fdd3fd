import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LatLng } from '../domain/geo.ts';
import { type LocationDetails, pointsText, type UserLocation } from '../domain/user-location.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextIds } from './counters.ts';
import { defineEntity, flag, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { queryRange } from './requests.ts';

/** The user's locations by user_location_uid. */
export async function listUserLocations(userUid: number): Promise<UserLocation[]> {
  const items = await queryRange(keys.userLocationRange(userUid));
  return items.map(locationEntity.fromItem);
}

export async function getUserLocation(userUid: number, userLocationUid: number): Promise<UserLocation> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.userLocation(userUid, userLocationUid) }));
  if (!Item) throw NotFound.notLinked('location');
  return locationEntity.fromItem(Item);
}

export async function addUserLocation(userUid: number, details: LocationDetails): Promise<UserLocation> {
  const [location] = await numberLocations([details]);
  await dynamo().send(new PutCommand(newLocationPut(userUid, location as UserLocation)));
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

/** Sets only the fields changed, so concurrent edits of different fields both survive. */
export async function updateUserLocation(userUid: number, userLocationUid: number, changes: Partial<LocationDetails>): Promise<void> {
  const update = locationEntity.update(changes);
  if (!update) return;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.userLocation(userUid, userLocationUid),
        ...update,
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    throw notFoundIfMissing(error);
  }
}

export async function deleteUserLocation(userUid: number, userLocationUid: number): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.userLocation(userUid, userLocationUid),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    throw notFoundIfMissing(error);
  }
}

function notFoundIfMissing(error: unknown): unknown {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException' ? NotFound.notLinked('location') : error;
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
