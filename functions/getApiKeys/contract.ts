import * as v from 'valibot';
import { ApiKeyRecord, DEMO_API_KEY } from '../../shared/contracts/api-keys.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';

export const contract = {
  name: 'getApiKeys',
  method: 'GET',
  area: 'api keys',
  personOnly: true,
  tableActions: ['Query'],
  summary: 'Your api keys',
  description: "The user's api keys, oldest first: a prefix of each, never the key; when made and last used; whether locked.",
  input: v.object({}),
  output: v.object({ api_keys: v.array(ApiKeyRecord) }),
  examples: { request: {}, response: { api_keys: [DEMO_API_KEY] } },
} as const satisfies OperationDeclaration;
