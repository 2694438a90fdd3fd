import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { coordinate, described, integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { PLACE_PARAMETERS, userLocationOptions } from '../../shared/contracts/user-locations.ts';

const AddUserLocationInput = v.object({
  description: described(requiredText('description', 255), PLACE_PARAMETERS.description),
  latitude: described(coordinate('latitude'), PLACE_PARAMETERS.latitude),
  longitude: described(coordinate('longitude'), PLACE_PARAMETERS.longitude),
  ...userLocationOptions,
});

const AddUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = {
  name: 'addUserLocation',
  method: 'POST',
  area: 'locations',
  tableActions: ['PutItem', 'UpdateItem'],
  summary: 'Save a point or polygon location',
  idempotencyKey: true,
  description:
    'Saves a point (the default: latitude, longitude and a radius in km) or a polygon (location_type polygon with at least 3 ' +
    "`points`). latitude and longitude are the polygon's reference point. speed is the zone's speed limit in km/h (0: none); no_go " +
    'and only_push are 0/1 flags.',
  input: AddUserLocationInput,
  output: AddUserLocationOutput,
  examples: {
    request: { description: 'Client Centurion', latitude: -25.8603, longitude: 28.1894, radius: 0.3, color: 'orange', speed: 40 },
    response: { user_location_uid: 5 },
  },
} as const satisfies OperationDeclaration;
