import * as v from 'valibot';
import { toUserLocationRecord, UserLocationRecord } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { listUserLocations } from '../../shared/store/user-locations.ts';

export const GetUserLocationsInput = v.object({});

export const GetUserLocationsOutput = v.object({ cnt: integerField, locations: v.array(UserLocationRecord) });

export const handler = operation('getUserLocations', GetUserLocationsInput, async ({ user }) => {
  const locations = await listUserLocations(user.userUid);
  return { cnt: locations.length, locations: locations.map(toUserLocationRecord) };
}, { output: GetUserLocationsOutput });
