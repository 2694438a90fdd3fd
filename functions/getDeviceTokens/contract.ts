import * as v from 'valibot';
import { DEMO_DEVICE_TOKEN, DeviceTokenRecord } from '../../shared/contracts/device-tokens.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

export const contract = {
  name: 'getDeviceTokens',
  method: 'GET',
  area: 'devices',
  personOnly: true,
  tableActions: ['Query'],
  summary: 'Your device tokens',
  description: "The user's device tokens in use, oldest first: a prefix of each, never the token; revoked ones are left out.",
  input: v.object({}),
  output: v.object({ device_tokens: v.array(DeviceTokenRecord) }),
  examples: { request: {}, response: { device_tokens: [DEMO_DEVICE_TOKEN] } },
} as const satisfies OperationDeclaration;
