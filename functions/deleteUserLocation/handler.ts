import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { deleteUserLocation } from '../../shared/store/user-locations.ts';

export const DeleteUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

export const DeleteUserLocationOutput = v.object({ user_location_uid: integerField });

export const handler = operation('deleteUserLocation', DeleteUserLocationInput, async ({ user, input }) => {
  await deleteUserLocation(user.userUid, input.user_location_uid);
  return { user_location_uid: input.user_location_uid };
}, { output: DeleteUserLocationOutput });
