import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const DeleteRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

const DeleteRouteOutput = v.object({ route_uid: integerField });

export const contract = { input: DeleteRouteInput, output: DeleteRouteOutput } satisfies OperationContract;
