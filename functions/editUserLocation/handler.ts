import * as v from 'valibot';
import { locationChanges, userLocationOptions } from '../../shared/domain/user-location.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { editUserLocation } from '../../shared/store/user-locations.ts';
import { coordinate, optionalText, requiredInteger } from '../../shared/validation.ts';

export const EditUserLocationInput = v.object({
  user_location_uid: requiredInteger('user_location_uid'),
  description: v.optional(v.pipe(v.unwrap(optionalText('description', 255)), v.nonEmpty('description may not be blank'))),
  latitude: v.optional(coordinate('latitude')),
  longitude: v.optional(coordinate('longitude')),
  ...userLocationOptions,
});

export const EditUserLocationOutput = v.object({ user_location_uid: integer });

export const handler = operation('editUserLocation', EditUserLocationInput, async ({ user, input }) => {
  await editUserLocation(user.userUid, input.user_location_uid, (current) => locationChanges(current, input));
  return { user_location_uid: input.user_location_uid };
}, { output: EditUserLocationOutput });
