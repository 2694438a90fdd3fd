import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { RouteSummary } from '../../shared/contracts/routes.ts';

const GetRoutesInput = v.object({});

const GetRoutesOutput = v.object({ cnt: integerField, routes: v.array(RouteSummary) });

export const contract = {
  name: 'getRoutes',
  method: 'GET',
  area: 'routes',
  tableActions: ['Query'],
  summary: "The user's routes with stop count and totals",
  description: "The user's routes with their stop count, total distance and time, and the vehicle scheduled onto them.",
  input: GetRoutesInput,
  output: GetRoutesOutput,
  examples: {
    request: {},
    response: {
      cnt: 1,
      routes: [
        {
          route_uid: 1,
          route_name: 'Morning deliveries',
          vehicle_uid: 2,
          stop_cnt: 4,
          distance_km: 36.698,
          duration_s: 2642,
          created_datetime: '2026-11-23 05:31:23',
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
