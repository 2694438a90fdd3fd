/**
 * Device tokens: the secret an OsmAnd phone or a Traccar server reports with. Like api keys, a token is random and
 * kept only as its SHA-256 hash; its id (the hash's first 12 hex digits) names it in lists and logs.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '../domain/api-key.ts';
import { NotFound } from '../errors.ts';
import { newApiKey } from './api-keys.ts';
import { dynamo, tableName } from './client.ts';
import { absentWhenNull, defineEntity, nullableText, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { batchGet, isConditionFailed, itemKey, queryRange, transactWrite } from './requests.ts';

export interface DeviceToken {
  tokenHash: string;
  /** names the token without revealing it */
  tokenId: string;
  userUid: number;
  /** the vehicle the console made it for (its OsmAnd URL names that vehicle's IMEI); null for the CLI's, any vehicle's */
  vehicleUid: number | null;
  /** the token's first 8 characters, for the console's list; null for tokens made before it was kept */
  prefix: string | null;
  createdAt: string;
  revokedAt: string | null;
}

const deviceTokenEntity = defineEntity<DeviceToken>({
  keys: (token) => ({ ...keys.deviceToken(token.tokenHash), ...keys.deviceTokenTimeline(token.userUid, token.createdAt, token.tokenId) }),
  fields: {
    tokenHash: text('token_hash'),
    tokenId: text('token_id'),
    userUid: number('user_uid'),
    vehicleUid: absentWhenNull('vehicle_uid'),
    prefix: { ...nullableText('prefix'), write: (value) => value ?? undefined },
    createdAt: text('created_at'),
    // Left off the item until revoked, so the revoke's if_not_exists keeps the first time.
    revokedAt: { ...nullableText('revoked_at'), write: (value) => value ?? undefined },
  },
});

/** Tokens are hashed and drawn as api keys are: 256 random bits, looked up by SHA-256. */
export const hashDeviceToken = hashApiKey;

const tokenIdOf = (tokenHash: string): string => tokenHash.slice(0, 12);

/**
 * A new token for the user; only its hash is stored, so the token is shown once. The user's reference to it (its id
 * to its hash) is written with it, so deleteDeviceToken reads one item however many tokens the user has.
 */
export async function createDeviceToken(
  userUid: number,
  vehicleUid: number | null = null,
): Promise<{ token: string; tokenId: string; createdAt: string }> {
  const token = newApiKey();
  const tokenHash = hashDeviceToken(token);
  const record: DeviceToken = {
    tokenHash,
    tokenId: tokenIdOf(tokenHash),
    userUid,
    vehicleUid,
    prefix: token.slice(0, 8),
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
  await transactWrite([
    { Put: { TableName: tableName(), Item: deviceTokenEntity.toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.deviceTokenReference(userUid, record.tokenId), token_hash: tokenHash },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return { token, tokenId: record.tokenId, createdAt: record.createdAt };
}

/** The token by its hash: one GetItem. */
export async function findDeviceToken(tokenHash: string): Promise<DeviceToken | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.deviceToken(tokenHash) }));
  return Item ? deviceTokenEntity.fromItem(Item) : undefined;
}

/** Revokes the token (a second revoke keeps the first time); undefined when there is no such token. */
export async function revokeDeviceToken(token: string): Promise<DeviceToken | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.deviceToken(hashDeviceToken(token)),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? deviceTokenEntity.fromItem(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/**
 * Revokes the user's token named by its id (the console's delete): its hash from the user's reference to it, one
 * update; 404 for an id that is not the user's, or a token already revoked.
 */
export async function revokeUserDeviceToken(userUid: number, tokenId: string): Promise<void> {
  const tokenHash = await tokenHashOf(userUid, tokenId);
  if (tokenHash === undefined) throw NotFound.notLinked('device token');
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.deviceToken(tokenHash),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at) AND user_uid = :user',
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':user': userUid },
      }),
    );
  } catch (error) {
    if (isConditionFailed(error)) throw NotFound.notLinked('device token');
    throw error;
  }
}

/**
 * The hash of the user's token `tokenId`: one GetItem of its reference. Tokens made before references (2026-11-29)
 * have none, so an id without one is looked for in the user's list, as every id was before.
 */
async function tokenHashOf(userUid: number, tokenId: string): Promise<string | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.deviceTokenReference(userUid, tokenId) }));
  if (Item) return String(Item.token_hash);
  return (await listDeviceTokens(userUid)).find((token) => token.tokenId === tokenId)?.tokenHash;
}

/** The user's tokens, oldest first: one Query of gsi1. */
export async function listDeviceTokens(userUid: number): Promise<DeviceToken[]> {
  const items = await queryRange(keys.deviceTokenRange(userUid));
  return items.map(deviceTokenEntity.fromItem);
}

/**
 * Of the IMEIs given, those that are vehicles linked to the user, with their vehicle_uid: one BatchGetItem for the
 * IMEI claims, one for the user's links to those vehicles. An IMEI missing from the answer is unknown or another user's.
 */
export async function findUserVehiclesByImei(userUid: number, imeis: readonly string[]): Promise<Map<string, number>> {
  const claims = new Map((await batchGet(imeis.map(keys.imeiClaim))).map((claim) => [itemKey(claim), Number(claim.vehicle_uid)]));
  const vehicleOf = new Map(
    imeis.flatMap((imei) => {
      const vehicleUid = claims.get(itemKey(keys.imeiClaim(imei)));
      return vehicleUid === undefined ? [] : [[imei, vehicleUid] as const];
    }),
  );
  const links = await batchGet([...vehicleOf.values()].map((vehicleUid) => keys.vehicleLink(userUid, vehicleUid)));
  const linked = new Set(links.map(itemKey));
  return new Map([...vehicleOf].filter(([, vehicleUid]) => linked.has(itemKey(keys.vehicleLink(userUid, vehicleUid)))));
}
