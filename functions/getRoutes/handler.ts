import * as v from 'valibot';
import { RouteSummary, toRouteSummary } from '../../shared/contracts/routes.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { listRoutes } from '../../shared/store/routes.ts';

export const GetRoutesInput = v.object({});

export const GetRoutesOutput = v.object({ cnt: integerField, routes: v.array(RouteSummary) });

export const handler = operation('getRoutes', GetRoutesInput, async ({ user }) => {
  const routes = await listRoutes(user.userUid);
  return { cnt: routes.length, routes: routes.map((route) => toRouteSummary(route, user.gmtOffsetMinutes)) };
}, { output: GetRoutesOutput });
