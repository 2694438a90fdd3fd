import * as v from 'valibot';
import { DEPOT_MIDRAND } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { UserLocationRecord, userLocationUid } from '../../shared/contracts/user-locations.ts';

const GetUserLocationInput = v.object({ user_location_uid: userLocationUid });

const GetUserLocationOutput = v.object({ location: UserLocationRecord });

export const contract = {
  name: 'getUserLocation',
  method: 'GET',
  area: 'locations',
  tableActions: ['GetItem'],
  summary: 'One saved location',
  description: "One of the user's saved locations by user_location_uid.",
  input: GetUserLocationInput,
  output: GetUserLocationOutput,
  examples: {
    request: { user_location_uid: 1 },
    response: {
      location: DEPOT_MIDRAND,
    },
  },
} as const satisfies OperationDeclaration;
