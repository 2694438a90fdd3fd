import * as v from 'valibot';
import { deviceTokenUid } from '../../shared/contracts/device-tokens.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

export const contract = {
  name: 'deleteDeviceToken',
  method: 'POST',
  area: 'devices',
  personOnly: true,
  tableActions: ['GetItem', 'Query', 'UpdateItem'],
  summary: 'Revoke a device token',
  description: 'Revokes the token: its devices are refused within 60 s (the credential cache) and it leaves the list at once.',
  input: v.object({ device_token_uid: deviceTokenUid }),
  output: v.object({ device_token_uid: v.string() }),
  examples: { request: { device_token_uid: '3f9a0c1b7d2e' }, response: { device_token_uid: '3f9a0c1b7d2e' } },
} as const satisfies OperationDeclaration;
