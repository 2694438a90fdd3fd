import { hashApiKey } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/user.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { type CredentialMemoryOptions, credentialMemory } from './credential-memory.ts';
import { type HttpMiddleware, type HttpRequest, headerValue } from './types.ts';

export type FindApiKey = (keyHash: string) => Promise<ApiKeyRecord | undefined>;

export interface ApiKeyAuthOptions extends CredentialMemoryOptions {
  findApiKey: FindApiKey;
}

/**
 * The credentials step: finds the key in the X-Api-Key header (which wins), the body or the query string, hashes it
 * once and looks it up by that SHA-256 only (the key itself is never logged nor kept); a key found and unlocked
 * leaves its user and its hash in request.internal for every later middleware.
 */
export const apiKeyAuth = ({ findApiKey, ...memory }: ApiKeyAuthOptions): HttpMiddleware => {
  const lookUp = credentialMemory(findApiKey, memory);

  const apiKeyAuthBefore = async (request: HttpRequest): Promise<void> => {
    const apiKey = presentedKey(request);
    if (!apiKey) throw new Unauthorized('api key missing');
    const apiKeyHash = hashApiKey(apiKey);
    const record = await lookUp(apiKeyHash);
    if (!record) throw new Unauthorized('unknown api key');
    if (record.locked) throw new Forbidden('api key locked');
    request.internal.user = record.user;
    request.internal.apiKeyHash = apiKeyHash;
  };
  return { name: 'apiKeyAuth', before: apiKeyAuthBefore };
};

/** The first non-blank key of header, body and query, in that order: a blank key in one place never hides a key in another. */
function presentedKey(request: HttpRequest): string | undefined {
  const sources = [headerValue(request.event, 'x-api-key'), request.internal.bodyParams?.api_key, request.internal.queryParams?.api_key];
  for (const source of sources) {
    if (typeof source === 'string' && source.trim() !== '') return source.trim();
  }
  return undefined;
}
