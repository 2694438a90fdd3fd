import { deviceTokenRecord } from '../../shared/contracts/device-tokens.ts';
import { operation } from '../../shared/operation.ts';
import { listDeviceTokens } from '../../shared/store/device-tokens.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => ({
  device_tokens: (await listDeviceTokens(user.userUid))
    .filter((token) => token.revokedAt === null)
    .map((token) => deviceTokenRecord(token, user.gmtOffsetMinutes)),
}));
