import { operation } from '../../shared/operation.ts';
import { issueApiKey } from '../../shared/store/api-keys.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const { apiKey, apiKeyUid } = await issueApiKey(user.userUid, input.description ?? null);
  return { api_key_uid: apiKeyUid, api_key: apiKey };
});
