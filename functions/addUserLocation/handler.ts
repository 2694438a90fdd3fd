import * as v from 'valibot';
import { newLocation, userLocationOptions } from '../../shared/domain/user-location.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';
import { coordinate, requiredText } from '../../shared/validation.ts';

export const AddUserLocationInput = v.object({
  description: requiredText('description', 255),
  latitude: coordinate('latitude'),
  longitude: coordinate('longitude'),
  ...userLocationOptions,
});

export const AddUserLocationOutput = v.object({ user_location_uid: integer });

export const handler = operation('addUserLocation', AddUserLocationInput, async ({ user, input }) => {
  const created = await addUserLocation(user.userUid, newLocation(input));
  return { user_location_uid: created.userLocationUid };
}, { output: AddUserLocationOutput });
