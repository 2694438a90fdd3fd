/** The api key operations' parameters and record (docs/console.md, "API keys"): a signed-in person's only. */
import * as v from 'valibot';
import { formatDateTime } from '../domain/time.ts';
import type { ApiKeySummary } from '../store/api-keys.ts';
import { dateTimeField, described, flagField, integerField, nullableTextField, optionalText, requiredInteger } from './primitives.ts';

export const apiKeyUid = described(requiredInteger('api_key_uid'), "One of the user's api keys (api_key_uid of addApiKey or getApiKeys).");

export const apiKeyDescription = described(optionalText('description', 255), 'What the key is for (at most 255 characters).');

export const ApiKeyRecord = v.object({
  api_key_uid: integerField,
  prefix: described(v.string(), "The key's first 8 characters: enough to tell keys apart, never to use one."),
  description: nullableTextField,
  created_datetime: dateTimeField,
  last_used_datetime: described(v.nullable(dateTimeField), 'The last request made with the key, to the hour; null: never used.'),
  locked: described(flagField, '1: the key is refused (403 api key locked) until unlocked.'),
});

/** A key as its list shows it, times in the user's offset. */
export const apiKeyRecord = (key: ApiKeySummary, gmtOffsetMinutes: number): v.InferOutput<typeof ApiKeyRecord> => ({
  api_key_uid: key.apiKeyUid,
  prefix: key.prefix,
  description: key.description,
  created_datetime: formatDateTime(key.createdAt, gmtOffsetMinutes),
  last_used_datetime: key.lastUsedAt === null ? null : formatDateTime(key.lastUsedAt, gmtOffsetMinutes),
  locked: key.locked ? 1 : 0,
});

export const DEMO_API_KEY = {
  api_key_uid: 2,
  prefix: 'Xq3vN8aL',
  description: 'dispatch system',
  created_datetime: '2026-03-14 09:12:03',
  last_used_datetime: null,
  locked: 0,
};

export const ApiKeyUidOutput = v.object({ api_key_uid: integerField });
