import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LatLng } from '../domain/geo.ts';
import { type LocationDetails, pointsText, type UserLocation } from '../domain/user-location.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextIds } from './counters.ts';
import { keys } from './keys.ts';
import { type Item, queryRange, setExpression } from './requests.ts';

/** The user's locations by user_location_uid. */
export async function listUserLocations(userUid: number): Promise<UserLocation[]> {
  const items = await queryRange(keys.userLocationRange(userUid));
  return items.map(locationFromItem);
}

export async function getUserLocation(userUid: number, userLocationUid: number): Promise<UserLocation> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.userLocation(userUid, userLocationUid) }));
  if (!Item) throw NotFound.notLinked('location');
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

/** Sets only the fields changed, so concurrent edits of different fields both survive. */
export async function updateUserLocation(userUid: number, userLocationUid: number, changes: Partial<LocationDetails>): Promise<void> {
  const update = setExpression(locationAttributes(changes));
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
