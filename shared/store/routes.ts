import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type NewRoute, type Route, type RouteLeg, type RouteStop, routeTotals } from '../domain/route/rules.ts';
import type { UserLocation } from '../domain/user-location.ts';
import { busyMessage, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { bool, defineEntity, list, nullableNumber, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { failedConditions, queryRange, transactWrite, writeWithOptimisticRetry } from './requests.ts';
import { locationsVersionUpdate, newLocationPut } from './user-locations.ts';

/**
 * The route, the locations its raw stops created and, with a vehicle, its schedule item, in one transaction
 * that also checks the vehicle is still linked to the user: a failure leaves nothing behind.
 */
export async function addRoute(userUid: number, details: NewRoute, newLocations: readonly UserLocation[]): Promise<Route> {
  const route: Route = { ...details, routeUid: await nextId('route'), createdAt: new Date().toISOString() };
  const schedule =
    route.vehicleUid === null
      ? []
      : [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.vehicleLink(userUid, route.vehicleUid),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...keys.vehicleSchedule(route.vehicleUid, route.routeUid),
                user_uid: userUid,
                route_uid: route.routeUid,
                route_name: route.name,
                scheduled_at: route.createdAt,
              },
            },
          },
        ];
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: routeEntity.toItem(route, userUid), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...schedule,
      ...newLocations.map((location) => ({ Put: newLocationPut(userUid, location) })),
      ...(newLocations.length > 0 ? [locationsVersionUpdate(userUid)] : []),
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw NotFound.notLinked('vehicle', { cause: error });
    throw error;
  }
  return route;
}

export async function getRoute(userUid: number, routeUid: number, { consistent = false } = {}): Promise<Route> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.route(userUid, routeUid), ConsistentRead: consistent }),
  );
  if (!Item) throw NotFound.notLinked('route');
  return routeEntity.fromItem(Item);
}

/** The user's routes by route_uid, oldest first: one Query. */
export async function listRoutes(userUid: number): Promise<Route[]> {
  const items = await queryRange(keys.routeRange(userUid));
  return items.map(routeEntity.fromItem);
}

/**
 * Deletes the route and takes its vehicle off it; the locations its stops created stay. The read is strongly
 * consistent: a route added a moment ago is found, and a retry sees a delete that beat it (answered not found).
 */
export async function deleteRoute(userUid: number, routeUid: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => getRoute(userUid, routeUid, { consistent: true }),
    write: (route) =>
      transactWrite([
        { Delete: { TableName: tableName(), Key: keys.route(userUid, routeUid), ConditionExpression: 'attribute_exists(pk)' } },
        ...(route.vehicleUid === null
          ? []
          : [{ Delete: { TableName: tableName(), Key: keys.vehicleSchedule(route.vehicleUid, routeUid) } }]),
      ]),
    busyMessage: busyMessage('route'),
  });
}

const stopEntity = defineEntity<RouteStop>({
  fields: {
    seq: number('seq'),
    userLocationUid: number('user_location_uid'),
    description: text('description'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    created: bool('created'),
  },
});

const legEntity = defineEntity<RouteLeg>({
  fields: { fromSeq: number('from_seq'), toSeq: number('to_seq'), distanceKm: number('distance_km'), durationS: number('duration_s') },
});

/** Stored as the record addRoute answers (its totals included), plus the creation time. */
const routeEntity = defineEntity<Route, number>({
  keys: (route, userUid) => keys.route(userUid, route.routeUid),
  fields: {
    routeUid: number('route_uid'),
    name: text('route_name'),
    vehicleUid: nullableNumber('vehicle_uid'),
    directionsSource: text('directions_source'),
    stops: list('stops', stopEntity),
    legs: list('legs', legEntity),
    createdAt: text('created_at'),
  },
  derived: (route) => ({ totals: routeTotals(route) }),
});
