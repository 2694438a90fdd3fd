import { operation } from '../../shared/operation.ts';
import { setUserApiKeyLocked } from '../../shared/store/api-keys.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await setUserApiKeyLocked(user.userUid, input.api_key_uid, true);
  return { api_key_uid: input.api_key_uid };
});
