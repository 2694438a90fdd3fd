import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { coordinate, described, integerField, optionalText } from '../../shared/contracts/primitives.ts';
import { PLACE_PARAMETERS, userLocationOptions, userLocationUid } from '../../shared/contracts/user-locations.ts';
import { busyMessage } from '../../shared/errors.ts';

const EditUserLocationInput = v.object({
  user_location_uid: userLocationUid,
  description: described(
    v.optional(v.pipe(v.unwrap(optionalText('description', 255)), v.nonEmpty('description may not be blank'))),
    PLACE_PARAMETERS.description,
  ),
  latitude: described(v.optional(coordinate('latitude')), PLACE_PARAMETERS.latitude),
  longitude: described(v.optional(coordinate('longitude')), PLACE_PARAMETERS.longitude),
  ...userLocationOptions,
});

const EditUserLocationOutput = v.object({ user_location_uid: integerField });

export const contract = {
  name: 'editUserLocation',
  method: 'POST',
  area: 'locations',
  tableActions: ['GetItem', 'UpdateItem'],
  summary: 'Change a saved location; omitted fields keep their value',
  description:
    'Changes a saved location: only the fields sent change. Turning a point into a polygon needs its `points`; turning a polygon ' +
    'into a point drops them. A record read back from getUserLocation may be sent back as it is.',
  conflicts: [busyMessage('location')],
  input: EditUserLocationInput,
  output: EditUserLocationOutput,
  examples: {
    request: {
      user_location_uid: 5,
      location_type: 'polygon',
      points: [
        { lat: -25.8615, lng: 28.188 },
        { lat: -25.8615, lng: 28.1908 },
        { lat: -25.8591, lng: 28.1908 },
        { lat: -25.8591, lng: 28.188 },
      ],
      no_go: 0,
      only_push: 1,
    },
    response: { user_location_uid: 5 },
  },
} as const satisfies OperationDeclaration;
