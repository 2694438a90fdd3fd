import { operation } from '../../shared/operation.ts';
import { deleteUserLocation } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteUserLocation(user.userUid, input.user_location_uid);
  return { user_location_uid: input.user_location_uid };
});
