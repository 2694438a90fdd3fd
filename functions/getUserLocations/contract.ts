import * as v from 'valibot';
import { DEPOT_MIDRAND } from '../../shared/contracts/demo-records.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { UserLocationRecord } from '../../shared/contracts/user-locations.ts';

const GetUserLocationsInput = v.object({});

const GetUserLocationsOutput = v.object({ cnt: integerField, locations: v.array(UserLocationRecord) });

export const contract = {
  name: 'getUserLocations',
  method: 'GET',
  area: 'locations',
  tableActions: ['Query'],
  summary: "The user's saved locations (points and polygons)",
  description:
    "The user's saved locations: points (a centre and a radius in km) and polygons (geofences). The positions pipeline, the live " +
    'map and routes name places from them.',
  input: GetUserLocationsInput,
  output: GetUserLocationsOutput,
  examples: {
    request: {},
    response: {
      cnt: 4,
      locations: [
        DEPOT_MIDRAND,
        {
          user_location_uid: 2,
          latitude: -26.1076,
          longitude: 28.0567,
          description: 'Client Sandton',
          icon: '',
          color: 'blue',
          radius: 0.4,
          location_type: 'point',
          points: '',
          speed: 0,
          no_go: 0,
          only_push: 0,
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
