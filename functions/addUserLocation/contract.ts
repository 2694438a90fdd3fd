import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { coordinate, integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { userLocationOptions } from '../../shared/contracts/user-locations.ts';

const AddUserLocationInput = v.object({
  description: requiredText('description', 255),
  latitude: coordinate('latitude'),
  longitude: coordinate('longitude'),
  ...userLocationOptions,
});

const AddUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = { input: AddUserLocationInput, output: AddUserLocationOutput } satisfies OperationContract;
