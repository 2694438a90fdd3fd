import { planPoints, planStops, routeLegs, routeStops } from '../../shared/domain/route/rules.ts';
import { toRouteRecord } from '../../shared/contracts/routes.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { findDirections } from '../../shared/providers/directions/directions.ts';
import { addRoute, VEHICLE_NOT_FOUND } from '../../shared/store/routes.ts';
import { listUserLocations, numberLocations } from '../../shared/store/user-locations.ts';
import { findVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

/**
 * Reads first (stops, then vehicle, in parameter order), then the directions, and only then writes the
 * route with its new locations in one transaction: a refusal or a failure leaves nothing behind.
 */
export const handler = operation('addRoute', contract, async ({ user, input }) => {
  const vehicleUid = input.vehicle_uid ?? null;
  const [locations, vehicle] = await Promise.all([
    listUserLocations(user.userUid),
    vehicleUid === null ? undefined : findVehicleForUser(user.userUid, vehicleUid),
  ]);
  const plan = planStops(input.stops, locations);
  if (vehicleUid !== null && !vehicle) throw new NotFound(VEHICLE_NOT_FOUND);
  const directions = await findDirections(planPoints(plan));
  const created = await numberLocations(plan.drafts);
  const route = await addRoute(
    user.userUid,
    { name: input.route_name, vehicleUid, directionsSource: directions.source, stops: routeStops(plan, created), legs: routeLegs(directions.legs) },
    created,
  );
  return toRouteRecord(route);
});
