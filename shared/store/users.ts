import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { putNewItem } from './requests.ts';

export interface UserProfile {
  userUid: number;
  name: string;
  gmtOffsetMinutes: number;
}

const userEntity = defineEntity<UserProfile>({
  keys: (user) => keys.user(user.userUid),
  fields: {
    userUid: number('user_uid'),
    name: text('name'),
    gmtOffsetMinutes: { name: 'gmt_offset_minutes', read: (value) => Number(value ?? 0) },
  },
});

export async function createUser(name: string, gmtOffsetMinutes = 0): Promise<UserProfile> {
  const user: UserProfile = { userUid: await nextId('user'), name, gmtOffsetMinutes };
  await putNewItem(userEntity.toItem(user));
  return user;
}

export async function findUser(userUid: number): Promise<UserProfile | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.user(userUid) }));
  return Item ? userEntity.fromItem(Item) : undefined;
}
