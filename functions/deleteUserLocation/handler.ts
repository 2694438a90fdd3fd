import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { deleteUserLocation } from '../../shared/store/user-locations.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const DeleteUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

export const DeleteUserLocationOutput = v.object({ user_location_uid: integer });

export const handler = operation('deleteUserLocation', DeleteUserLocationInput, async ({ user, input }) => {
  await deleteUserLocation(user.userUid, input.user_location_uid);
  return { user_location_uid: input.user_location_uid };
}, { output: DeleteUserLocationOutput });
