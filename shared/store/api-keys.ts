import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey, LAST_USED_RESOLUTION_MS } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/user.ts';
import { NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys } from './keys.ts';
import { isConditionFailed, queryRange, transactWrite } from './requests.ts';
import { findUser } from './users.ts';

/** What a key's list shows: never the key, only its first characters (enough to tell keys apart, never to use one). */
export interface ApiKeySummary {
  apiKeyUid: number;
  prefix: string;
  description: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  locked: boolean;
}

/** How many of a key's characters its list shows (48 of its 256 bits). */
const PREFIX_LENGTH = 8;

/** The key item carries the user's offset too, so authentication is one GetItem. */
export async function findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyHash) }));
  if (!Item) return undefined;
  return {
    user: { userUid: Number(Item.user_uid), gmtOffsetMinutes: Number(Item.gmt_offset_minutes ?? 0) },
    locked: Item.locked === true,
    lastUsedAt: typeof Item.last_used_at === 'string' ? Item.last_used_at : null,
  };
}

/**
 * 256 random bits in base64url, never starting with '-' or '_': a key that starts with '-' reads as an
 * option to CLIs (`--key -abc`) and shells. Redrawing keeps every key equally likely among the rest.
 */
export function newApiKey(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const apiKey = random(32).toString('base64url');
    if (/^[A-Za-z0-9]/.test(apiKey)) return apiKey;
  }
}

/**
 * A new random key for a user, shown once: only its SHA-256 hash is stored, in the key item (found by that hash,
 * listed by gsi1) beside the reference that names it by api_key_uid under the user, both in one transaction.
 */
export async function issueApiKey(userUid: number, description: string | null = null): Promise<{ apiKey: string; apiKeyUid: number }> {
  const user = await findUser(userUid);
  if (!user) throw new Error(`user ${userUid} not found`);
  const apiKey = newApiKey();
  const keyHash = hashApiKey(apiKey);
  const apiKeyUid = await nextId('apiKey');
  const createdAt = new Date().toISOString();
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.apiKey(keyHash),
          ...keys.apiKeyTimeline(userUid, createdAt, apiKeyUid),
          api_key_uid: apiKeyUid,
          user_uid: userUid,
          gmt_offset_minutes: user.gmtOffsetMinutes,
          prefix: apiKey.slice(0, PREFIX_LENGTH),
          ...(description === null ? {} : { description }),
          locked: false,
          created_at: createdAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.apiKeyReference(userUid, apiKeyUid), key_hash: keyHash },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return { apiKey, apiKeyUid };
}

/** issueApiKey for the CLI and the seed, which need only the key. */
export const createApiKey = async (userUid: number): Promise<string> => (await issueApiKey(userUid)).apiKey;

/** The user's keys, oldest first: one Query of gsi1. */
export async function listApiKeys(userUid: number): Promise<ApiKeySummary[]> {
  const items = await queryRange(keys.apiKeyRange(userUid));
  return items.map((item) => ({
    apiKeyUid: Number(item.api_key_uid),
    prefix: String(item.prefix),
    description: typeof item.description === 'string' ? item.description : null,
    createdAt: String(item.created_at),
    lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
    locked: item.locked === true,
  }));
}

/** The hash of the user's key api_key_uid, or 404 for a key that is not there or another user's. */
async function keyHashOf(userUid: number, apiKeyUid: number): Promise<string> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyReference(userUid, apiKeyUid) }));
  if (!Item) throw NotFound.notLinked('api key');
  return String(Item.key_hash);
}

/** Locks or unlocks the user's key (a key's own lock takes within the credential cache's 60 s, docs/console.md). */
export async function setUserApiKeyLocked(userUid: number, apiKeyUid: number, locked: boolean): Promise<void> {
  const keyHash = await keyHashOf(userUid, apiKeyUid);
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET locked = :locked',
        ConditionExpression: 'attribute_exists(pk) AND user_uid = :user',
        ExpressionAttributeValues: { ':locked': locked, ':user': userUid },
      }),
    );
  } catch (error) {
    // deleted between the two reads
    if (isConditionFailed(error)) throw NotFound.notLinked('api key');
    throw error;
  }
}

/** Deletes the user's key and its reference in one transaction: the key stops working within the cache's 60 s. */
export async function deleteUserApiKey(userUid: number, apiKeyUid: number): Promise<void> {
  const keyHash = await keyHashOf(userUid, apiKeyUid);
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: keys.apiKey(keyHash), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: keys.apiKeyReference(userUid, apiKeyUid), ConditionExpression: 'attribute_exists(pk)' } },
    ]);
  } catch (error) {
    if (isConditionFailed(error)) throw NotFound.notLinked('api key');
    throw error;
  }
}

/**
 * Records the key's use, at most once an hour (LAST_USED_RESOLUTION_MS): the condition keeps a slower writer from
 * moving it back, and a key deleted meanwhile from coming back.
 */
export async function markApiKeyUsed(keyHash: string, now: Date = new Date()): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :stale)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':stale': new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString() },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** Locks or unlocks an existing key by the key itself (the admin CLI); false when no such key exists. */
export async function setApiKeyLocked(apiKey: string, locked: boolean): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(hashApiKey(apiKey)),
        UpdateExpression: 'SET locked = :locked',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':locked': locked },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
