import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';
import { RouteRecord } from '../../shared/contracts/routes.ts';

const GetRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

const GetRouteOutput = v.object({ route: RouteRecord });

export const contract = { input: GetRouteInput, output: GetRouteOutput } satisfies OperationContract;
