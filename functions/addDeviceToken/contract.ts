import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, integerField } from '../../shared/contracts/primitives.ts';
import { vehicleUid } from '../../shared/contracts/vehicles.ts';

export const contract = {
  name: 'addDeviceToken',
  method: 'POST',
  area: 'devices',
  personOnly: true,
  tableActions: ['BatchGetItem', 'PutItem'],
  summary: 'Set up a phone',
  description:
    'Makes a device token for a vehicle of the user and answers it once, with the OsmAnd URL a phone (Traccar Client, ' +
    "OsmAnd) reports to as that vehicle (its IMEI as the id): only the token's SHA-256 is kept (docs/devices.md).",
  input: v.object({ vehicle_uid: vehicleUid }),
  output: v.object({
    device_token_uid: v.string(),
    vehicle_uid: integerField,
    token: described(v.string(), 'The token, shown this once.'),
    osmand_url: described(v.string(), "Where the phone reports: the token in the path, the vehicle's IMEI as id."),
  }),
  examples: {
    request: { vehicle_uid: 1 },
    response: {
      device_token_uid: '3f9a0c1b7d2e',
      vehicle_uid: 1,
      token: 'Kp4mW2xRb7Yq0s9LdE3nV6tH1cJ8uF5gA2zXoMiPwQk',
      osmand_url: 'http://127.0.0.1:3000/devices/osmand/Kp4mW2xRb7Yq0s9LdE3nV6tH1cJ8uF5gA2zXoMiPwQk?id=356307042441013',
    },
  },
} as const satisfies OperationDeclaration;
