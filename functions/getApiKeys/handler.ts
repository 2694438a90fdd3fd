import { apiKeyRecord } from '../../shared/contracts/api-keys.ts';
import { operation } from '../../shared/operation.ts';
import { listApiKeys } from '../../shared/store/api-keys.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => ({
  api_keys: (await listApiKeys(user.userUid)).map((key) => apiKeyRecord(key, user.gmtOffsetMinutes)),
}));
