import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys } from './keys.ts';

export interface UserProfile {
  userUid: number;
  name: string;
  gmtOffsetMinutes: number;
}

export async function createUser(name: string, gmtOffsetMinutes = 0): Promise<UserProfile> {
  const userUid = await nextId('user');
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.user(userUid), user_uid: userUid, name, gmt_offset_minutes: gmtOffsetMinutes },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { userUid, name, gmtOffsetMinutes };
}

export async function findUser(userUid: number): Promise<UserProfile | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.user(userUid) }));
  if (!Item) return undefined;
  return { userUid, name: String(Item.name), gmtOffsetMinutes: Number(Item.gmt_offset_minutes ?? 0) };
}
