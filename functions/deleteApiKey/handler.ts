import { operation } from '../../shared/operation.ts';
import { deleteUserApiKey } from '../../shared/store/api-keys.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteUserApiKey(user.userUid, input.api_key_uid);
  return { api_key_uid: input.api_key_uid };
});
