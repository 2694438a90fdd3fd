import * as v from 'valibot';
import { newLocation } from '../../shared/domain/user-location.ts';
import { userLocationOptions } from '../../shared/contracts/user-locations.ts';
import { operation } from '../../shared/operation.ts';
import { coordinate, integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';

export const AddUserLocationInput = v.object({
  description: requiredText('description', 255),
  latitude: coordinate('latitude'),
  longitude: coordinate('longitude'),
  ...userLocationOptions,
});

export const AddUserLocationOutput = v.object({ user_location_uid: integerField });

export const handler = operation('addUserLocation', AddUserLocationInput, async ({ user, input }) => {
  const created = await addUserLocation(user.userUid, newLocation(input));
  return { user_location_uid: created.userLocationUid };
}, { output: AddUserLocationOutput });
