import * as v from 'valibot';
import { MORNING_DELIVERIES } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, optionalInteger, requiredText } from '../../shared/contracts/primitives.ts';
import { RouteRecord, stopList } from '../../shared/contracts/routes.ts';

/** Form clients send every field: a blank vehicle_uid, like a JSON null, means no vehicle. */
const optionalVehicleUid = v.pipe(
  v.unknown(),
  v.transform((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value)),
  optionalInteger('vehicle_uid'),
  v.description("A vehicle linked to the key's user to schedule onto the route; blank or null for none."),
);

const AddRouteInput = v.object({
  route_name: described(requiredText('route_name', 255), "The route's name."),
  stops: stopList,
  vehicle_uid: optionalVehicleUid,
});

const AddRouteOutput = RouteRecord;

export const contract = {
  name: 'addRoute',
  method: 'POST',
  area: 'routes',
  tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  summary: 'Create a route through ordered stops, with driving distance and time per leg; optionally schedule a vehicle onto it',
  bucket: 'read-write',
  provider: 'directions',
  idempotencyKey: true,
  description:
    'Creates a route through 2 to 25 ordered stops, each a saved location or a point (a saved location within 50 m is reused, ' +
    'otherwise the point is saved as a new location, described by its description or, without one, by the saved location ' +
    'containing it, its address, or the nearest town), with the driving distance and time of every leg from the configured ' +
    'directions provider. With vehicle_uid the vehicle is scheduled onto it. Everything is written in one transaction.',
  input: AddRouteInput,
  output: AddRouteOutput,
  examples: {
    request: {
      route_name: 'Morning deliveries',
      stops: [
        { user_location_uid: 1 },
        { user_location_uid: 2 },
        { lat: -26.1452, lng: 28.0412, description: 'Client Rosebank' },
        { user_location_uid: 1 },
      ],
      vehicle_uid: 2,
    },
    response: MORNING_DELIVERIES,
  },
} as const satisfies OperationDeclaration;
