import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { deleteRoute } from '../../shared/store/routes.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const DeleteRouteInput = v.object({ route_uid: requiredInteger('route_uid') });

export const DeleteRouteOutput = v.object({ route_uid: integer });

export const handler = operation('deleteRoute', DeleteRouteInput, async ({ user, input }) => {
  await deleteRoute(user.userUid, input.route_uid);
  return { route_uid: input.route_uid };
}, { output: DeleteRouteOutput });
