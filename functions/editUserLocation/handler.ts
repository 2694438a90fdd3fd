import * as v from 'valibot';
import { locationChanges } from '../../shared/domain/user-location.ts';
import { userLocationOptions } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { coordinate, integerField, optionalText, requiredInteger } from '../../shared/contracts/primitives.ts';
import { getUserLocation, updateUserLocation } from '../../shared/store/user-locations.ts';

export const EditUserLocationInput = v.object({
  user_location_uid: requiredInteger('user_location_uid'),
  description: v.optional(v.pipe(v.unwrap(optionalText('description', 255)), v.nonEmpty('description may not be blank'))),
  latitude: v.optional(coordinate('latitude')),
  longitude: v.optional(coordinate('longitude')),
  ...userLocationOptions,
});

export const EditUserLocationOutput = v.object({ user_location_uid: integerField });

export const handler = operation('editUserLocation', EditUserLocationInput, async ({ user, input }) => {
  const current = await getUserLocation(user.userUid, input.user_location_uid);
  await updateUserLocation(user.userUid, current.userLocationUid, locationChanges(current, input));
  return { user_location_uid: current.userLocationUid };
}, { output: EditUserLocationOutput });
