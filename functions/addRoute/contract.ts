import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { optionalInteger, requiredText } from '../../shared/contracts/primitives.ts';
import { RouteRecord, stopList } from '../../shared/contracts/routes.ts';

/** Form clients send every field: a blank vehicle_uid, like a JSON null, means no vehicle. */
const optionalVehicleUid = v.pipe(
  v.unknown(),
  v.transform((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value)),
  optionalInteger('vehicle_uid'),
);

const AddRouteInput = v.object({
  route_name: requiredText('route_name', 255),
  stops: stopList,
  vehicle_uid: optionalVehicleUid,
});

const AddRouteOutput = RouteRecord;

export const contract = { input: AddRouteInput, output: AddRouteOutput } satisfies OperationContract;
