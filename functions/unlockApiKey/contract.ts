import * as v from 'valibot';
import { ApiKeyUidOutput, apiKeyUid } from '../../shared/contracts/api-keys.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

export const contract = {
  name: 'unlockApiKey',
  method: 'POST',
  area: 'api keys',
  personOnly: true,
  tableActions: ['GetItem', 'UpdateItem'],
  summary: 'Unlock an api key',
  description: 'The key works again, within 60 s (the credential cache).',
  input: v.object({ api_key_uid: apiKeyUid }),
  output: ApiKeyUidOutput,
  examples: { request: { api_key_uid: 2 }, response: { api_key_uid: 2 } },
} as const satisfies OperationDeclaration;
