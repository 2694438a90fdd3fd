import { locationChanges } from '../../shared/domain/user-location.ts';
import { operation } from '../../shared/operation.ts';
import { getUserLocation, updateUserLocation } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation('editUserLocation', contract, async ({ user, input }) => {
  const current = await getUserLocation(user.userUid, input.user_location_uid);
  await updateUserLocation(user.userUid, current.userLocationUid, locationChanges(current, input));
  return { user_location_uid: current.userLocationUid };
});
