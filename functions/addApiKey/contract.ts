import * as v from 'valibot';
import { apiKeyDescription } from '../../shared/contracts/api-keys.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, integerField } from '../../shared/contracts/primitives.ts';

export const contract = {
  name: 'addApiKey',
  method: 'POST',
  area: 'api keys',
  personOnly: true,
  tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
  summary: 'Make an api key',
  description: 'Makes an api key for the user and answers it once: only its SHA-256 is kept, so it cannot be shown again.',
  input: v.object({ description: apiKeyDescription }),
  output: v.object({
    api_key_uid: integerField,
    api_key: described(v.string(), 'The key, shown this once: keep it now.'),
  }),
  examples: {
    request: { description: 'dispatch system' },
    response: { api_key_uid: 2, api_key: 'Xq3vN8aLr2m0T5yKc7Wd1pE4sB9uH6jZgQfVxA0oIeM' },
  },
} as const satisfies OperationDeclaration;
