import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { userLocationUid } from '../../shared/contracts/user-locations.ts';

const DeleteUserLocationInput = v.object({ user_location_uid: userLocationUid });

const DeleteUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = {
  name: 'deleteUserLocation',
  method: 'POST',
  area: 'locations',
  tableActions: ['DeleteItem', 'UpdateItem'],
  summary: 'Delete a saved location',
  description: 'Deletes a saved location. Routes keep the stops they were made with.',
  input: DeleteUserLocationInput,
  output: DeleteUserLocationOutput,
  examples: {
    request: { user_location_uid: 5 },
    response: { user_location_uid: 5 },
  },
} as const satisfies OperationDeclaration;
