import { toRouteRecord } from '../../shared/contracts/routes.ts';
import type { LatLng } from '../../shared/domain/geo.ts';
import { nameDrafts, planPoints, planStops, routeLegs, routeStops, unnamedPoints } from '../../shared/domain/route/rules.ts';
import type { UserLocation } from '../../shared/domain/user-location.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { namePlace } from '../../shared/places/place-name.ts';
import { findDirections } from '../../shared/providers/directions/directions.ts';
import { Geocoder } from '../../shared/providers/geocoding/geocoder.ts';
import { addRoute } from '../../shared/store/routes.ts';
import { listUserLocations, numberLocations } from '../../shared/store/user-locations.ts';
import { findVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/**
 * A new stop without a description is named as trips' places are: the most specific of the user's zones that
 * contains it, else its address, else the gazetteer, else its coordinates (one geocoding budget per request).
 */
function placeNames(points: readonly LatLng[], locations: readonly UserLocation[]): Promise<string[]> {
  const geocoder = new Geocoder();
  return Promise.all(points.map((point) => namePlace(point, locations, geocoder)));
}

/**
 * Reads first (stops, then vehicle, in parameter order), then the directions and the new stops' names (together),
 * and only then writes the route with its new locations in one transaction: a refusal or a failure leaves nothing behind.
 */
export const handler = operation(contract, async ({ user, input }) => {
  const vehicleUid = input.vehicle_uid ?? null;
  const [locations, vehicle] = await Promise.all([
    listUserLocations(user.userUid),
    vehicleUid === null ? undefined : findVehicleForUser(user.userUid, vehicleUid),
  ]);
  const plan = planStops(input.stops, locations);
  if (vehicleUid !== null && !vehicle) throw NotFound.notLinked('vehicle');
  const [directions, names] = await Promise.all([findDirections(planPoints(plan)), placeNames(unnamedPoints(plan), locations)]);
  const named = nameDrafts(plan, names);
  const created = await numberLocations(named.drafts);
  const route = await addRoute(
    user.userUid,
    {
      name: input.route_name,
      vehicleUid,
      directionsSource: directions.source,
      stops: routeStops(named, created),
      legs: routeLegs(directions.legs),
    },
    created,
  );
  return toRouteRecord(route);
});
