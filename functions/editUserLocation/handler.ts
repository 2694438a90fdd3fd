import { locationChanges } from '../../shared/domain/user-location.ts';
import { operation } from '../../shared/operation.ts';
import { editUserLocation } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await editUserLocation(user.userUid, input.user_location_uid, (current) => locationChanges(current, input));
  return { user_location_uid: input.user_location_uid };
});
