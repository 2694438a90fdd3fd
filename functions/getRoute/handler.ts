import * as v from 'valibot';
import { RouteRecord, toRouteRecord } from '../../shared/domain/route.ts';
import { operation } from '../../shared/operation.ts';
import { getRoute } from '../../shared/store/routes.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const GetRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

export const GetRouteOutput = v.object({ route: RouteRecord });

export const handler = operation('getRoute', GetRouteInput, async ({ user, input }) => {
  const route = await getRoute(user.userUid, input.route_uid);
  return { route: toRouteRecord(route) };
}, { output: GetRouteOutput });
