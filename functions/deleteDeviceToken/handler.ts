import { operation } from '../../shared/operation.ts';
import { revokeUserDeviceToken } from '../../shared/store/device-tokens.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await revokeUserDeviceToken(user.userUid, input.device_token_uid);
  return { device_token_uid: input.device_token_uid };
});
