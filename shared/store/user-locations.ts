import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LatLng } from '../domain/geo.ts';
import { type LocationDetails, pointsText, type UserLocation } from '../domain/user-location.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextIds } from './counters.ts';
import { keys } from './keys.ts';
import { isConditionFailed, type Item, queryPrefix, setExpression, writeWithOptimisticRetry } from './requests.ts';

const NOT_FOUND = 'location not found or not linked to this api key';

/** The user's locations by user_location_uid. */
export async function listUserLocations(userUid: number): Promise<UserLocation[]> {
  const items = await queryPrefix(keys.user(userUid).pk, keys.userLocationsPrefix);
  return items.map(locationFromItem);
}

export function getUserLocation(userUid: number, userLocationUid: number): Promise<UserLocation> {
  return readLocation(userUid, userLocationUid, false);
}

/** An edit reads strongly consistently, as its retry must see the change that made its condition fail. */
async function readLocation(userUid: number, userLocationUid: number, consistent: boolean): Promise<UserLocation> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.userLocation(userUid, userLocationUid), ConsistentRead: consistent }),
  );
  if (!Item) throw new NotFound(NOT_FOUND);
  return locationFromItem(Item);
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
    Item: { ...keys.userLocation(userUid, location.userLocationUid), user_location_uid: location.userLocationUid, ...locationAttributes(location) },
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
      const update = setExpression(locationAttributes(changesFor(current)));
      if (!update) return;
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.userLocation(userUid, userLocationUid),
          ...update,
          ConditionExpression: 'location_type = :seenType',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':seenType': current.locationType },
        }),
      );
    },
    busyMessage: 'location is being changed by another request, try again',
  });
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
    if (isConditionFailed(error)) throw new NotFound(NOT_FOUND);
    throw error;
  }
}

/** Attribute names are the spec's field names; undefined fields are left out. */
function locationAttributes(details: Partial<LocationDetails>): Item {
  return {
    description: details.description,
    latitude: details.latitude,
    longitude: details.longitude,
    icon: details.icon,
    color: details.color,
    radius: details.radiusKm,
    location_type: details.locationType,
    points: details.points === undefined ? undefined : pointsText(details.points),
    speed: details.speedLimit,
    no_go: flag(details.noGo),
    only_push: flag(details.onlyPush),
  };
}

const flag = (value: boolean | undefined): number | undefined => (value === undefined ? undefined : Number(value));

function locationFromItem(item: Item): UserLocation {
  return {
    userLocationUid: Number(item.user_location_uid),
    description: String(item.description),
    latitude: Number(item.latitude),
    longitude: Number(item.longitude),
    icon: String(item.icon),
    color: String(item.color),
    radiusKm: Number(item.radius),
    locationType: item.location_type === 'polygon' ? 'polygon' : 'point',
    points: item.points ? (JSON.parse(String(item.points)) as LatLng[]) : [],
    speedLimit: Number(item.speed),
    noGo: item.no_go === 1,
    onlyPush: item.only_push === 1,
  };
}
