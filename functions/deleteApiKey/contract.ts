import * as v from 'valibot';
import { ApiKeyUidOutput, apiKeyUid } from '../../shared/contracts/api-keys.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

export const contract = {
  name: 'deleteApiKey',
  method: 'POST',
  area: 'api keys',
  personOnly: true,
  tableActions: ['GetItem', 'DeleteItem'],
  summary: 'Delete an api key',
  description: 'Deletes the key: it stops working within 60 s (the credential cache) and is gone from the list at once.',
  input: v.object({ api_key_uid: apiKeyUid }),
  output: ApiKeyUidOutput,
  examples: { request: { api_key_uid: 2 }, response: { api_key_uid: 2 } },
} as const satisfies OperationDeclaration;
