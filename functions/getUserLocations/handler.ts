import { toUserLocationRecord } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { listUserLocations } from '../../shared/store/user-locations.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => {
  const locations = await listUserLocations(user.userUid);
  return { cnt: locations.length, locations: locations.map(toUserLocationRecord) };
});
