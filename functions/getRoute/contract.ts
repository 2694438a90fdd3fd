import * as v from 'valibot';
import { MORNING_DELIVERIES } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { RouteRecord, routeUid } from '../../shared/contracts/routes.ts';

const GetRouteInput = v.object({ route_uid: routeUid });

const GetRouteOutput = v.object({ route: RouteRecord });

export const contract = {
  name: 'getRoute',
  method: 'GET',
  area: 'routes',
  tableActions: ['GetItem'],
  summary: 'One route with its stops and legs, as addRoute returned it',
  description: 'One route with its stops and legs, exactly as addRoute answered it.',
  input: GetRouteInput,
  output: GetRouteOutput,
  examples: {
    request: { route_uid: 1 },
    response: { route: MORNING_DELIVERIES },
  },
} as const satisfies OperationDeclaration;
