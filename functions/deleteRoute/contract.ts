import * as v from 'valibot';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const DeleteRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

const DeleteRouteOutput = v.object({ route_uid: integerField });

export const contract = { input: DeleteRouteInput, output: DeleteRouteOutput } satisfies OperationContract;
