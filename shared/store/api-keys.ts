import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/user.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { isConditionFailed } from './requests.ts';
import { findUser } from './users.ts';

/** The key item carries the user's offset too, so authentication is one GetItem. */
export async function findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyHash) }));
  if (!Item) return undefined;
  return {
    user: { userUid: Number(Item.user_uid), gmtOffsetMinutes: Number(Item.gmt_offset_minutes ?? 0) },
    locked: Item.locked === true,
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

/** A new random key for a user; only its SHA-256 hash is stored, so the key is shown once. */
export async function createApiKey(userUid: number): Promise<string> {
  const user = await findUser(userUid);
  if (!user) throw new Error(`user ${userUid} not found`);
  const apiKey = newApiKey();
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.apiKey(hashApiKey(apiKey)),
        user_uid: userUid,
        gmt_offset_minutes: user.gmtOffsetMinutes,
        locked: false,
        created_at: new Date().toISOString(),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return apiKey;
}

/** Locks or unlocks an existing key; false when no such key exists. */
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
