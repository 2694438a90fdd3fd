import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type NewRoute, type Route, type RouteLeg, type RouteStop, toRouteRecord } from '../domain/route.ts';
import type { UserLocation } from '../domain/user-location.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys } from './keys.ts';
import { failedConditions, type Item, queryRange, transactWrite } from './requests.ts';
import { newLocationPut } from './user-locations.ts';

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
      { Put: { TableName: tableName(), Item: routeItem(userUid, route), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...schedule,
      ...newLocations.map((location) => ({ Put: newLocationPut(userUid, location) })),
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw NotFound.notLinked('vehicle');
    throw error;
  }
  return route;
}

export async function getRoute(userUid: number, routeUid: number): Promise<Route> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.route(userUid, routeUid) }));
  if (!Item) throw NotFound.notLinked('route');
  return routeFromItem(Item);
}

/** The user's routes by route_uid, oldest first: one Query. */
export async function listRoutes(userUid: number): Promise<Route[]> {
  const items = await queryRange(keys.routeRange(userUid));
  return items.map(routeFromItem);
}

/** Deletes the route and takes its vehicle off it; the locations its stops created stay. */
export async function deleteRoute(userUid: number, routeUid: number): Promise<void> {
  const route = await getRoute(userUid, routeUid);
  const unschedule =
    route.vehicleUid === null ? [] : [{ Delete: { TableName: tableName(), Key: keys.vehicleSchedule(route.vehicleUid, routeUid) } }];
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: keys.route(userUid, routeUid), ConditionExpression: 'attribute_exists(pk)' } },
      ...unschedule,
    ]);
  } catch (error) {
    if (failedConditions(error)?.[0]) throw NotFound.notLinked('route');
    throw error;
  }
}

/** Stored as the record addRoute answers, plus the creation time. */
function routeItem(userUid: number, route: Route): Item {
  return { ...keys.route(userUid, route.routeUid), ...toRouteRecord(route), created_at: route.createdAt };
}

function routeFromItem(item: Item): Route {
  return {
    routeUid: Number(item.route_uid),
    name: String(item.route_name),
    vehicleUid: item.vehicle_uid === null || item.vehicle_uid === undefined ? null : Number(item.vehicle_uid),
    directionsSource: String(item.directions_source),
    createdAt: String(item.created_at),
    stops: (item.stops as Item[]).map(
      (stop): RouteStop => ({
        seq: Number(stop.seq),
        userLocationUid: Number(stop.user_location_uid),
        description: String(stop.description),
        latitude: Number(stop.latitude),
        longitude: Number(stop.longitude),
        created: stop.created === true,
      }),
    ),
    legs: (item.legs as Item[]).map(
      (leg): RouteLeg => ({
        fromSeq: Number(leg.from_seq),
        toSeq: Number(leg.to_seq),
        distanceKm: Number(leg.distance_km),
        durationS: Number(leg.duration_s),
      }),
    ),
  };
}
