/**
 * putNewItem on DynamoDB Local: a put of an item that must not exist yet, whose SDK retry after a lost answer finds
 * the item its own first attempt wrote (shared/store/requests.ts).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { putNewItem } from '../../shared/store/requests.ts';

/** An item under a key no other test uses, with the kinds of value the store writes. */
const anItem = () => ({ pk: `test-new-item#${randomUUID()}`, sk: 'item', name: 'Depot', count: 3, revoked_at: null, tags: ['a', 'b'] });

const stored = async (item: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }))).Item;

describe('putNewItem', () => {
  it('writes an item whose key is free', async () => {
    // Prepare
    const item = anItem();
    // Act
    await putNewItem(item);
    // Assess
    expect(await stored(item)).toEqual(item);
  });

  it('answers success when the key already holds the same item, as a retry finds its own first attempt', async () => {
    // Prepare
    const item = anItem();
    await putNewItem(item);
    // Act
    const again = putNewItem({ ...item });
    // Assess
    await expect(again).resolves.toBeUndefined();
    expect(await stored(item)).toEqual(item);
  });

  it('refuses another item under a key already taken, leaving the first one', async () => {
    // Prepare
    const item = anItem();
    await putNewItem(item);
    // Act
    const other = putNewItem({ ...item, name: 'Another depot' });
    // Assess
    await expect(other).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await stored(item)).toEqual(item);
  });
});
