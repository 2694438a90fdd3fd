import * as v from 'valibot';
import { toUserLocationRecord, UserLocationRecord } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { getUserLocation } from '../../shared/store/user-locations.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

export const GetUserLocationInput = v.object({ user_location_uid: requiredInteger('user_location_uid') });

export const GetUserLocationOutput = v.object({ location: UserLocationRecord });

export const handler = operation('getUserLocation', GetUserLocationInput, async ({ user, input }) => {
  const location = await getUserLocation(user.userUid, input.user_location_uid);
  return { location: toUserLocationRecord(location) };
}, { output: GetUserLocationOutput });
