import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { deleteRoute } from '../../shared/store/routes.ts';

export const DeleteRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

export const DeleteRouteOutput = v.object({ route_uid: integerField });

export const handler = operation('deleteRoute', DeleteRouteInput, async ({ user, input }) => {
  await deleteRoute(user.userUid, input.route_uid);
  return { route_uid: input.route_uid };
}, { output: DeleteRouteOutput });
