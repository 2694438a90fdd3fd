import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { coordinate, integerField, optionalText, requiredInteger } from '../../shared/contracts/primitives.ts';
import { userLocationOptions } from '../../shared/contracts/user-locations.ts';

const EditUserLocationInput = v.object({
  user_location_uid: requiredInteger('user_location_uid'),
  description: v.optional(v.pipe(v.unwrap(optionalText('description', 255)), v.nonEmpty('description may not be blank'))),
  latitude: v.optional(coordinate('latitude')),
  longitude: v.optional(coordinate('longitude')),
  ...userLocationOptions,
});

const EditUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = { input: EditUserLocationInput, output: EditUserLocationOutput } satisfies OperationContract;
