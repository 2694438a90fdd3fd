import { toUserLocationRecord } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { getUserLocation } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const location = await getUserLocation(user.userUid, input.user_location_uid);
  return { location: toUserLocationRecord(location) };
});
