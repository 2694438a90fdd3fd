import { newLocation } from '../../shared/domain/user-location.ts';
import { operation } from '../../shared/operation.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const created = await addUserLocation(user.userUid, newLocation(input));
  return { user_location_uid: created.userLocationUid };
});
