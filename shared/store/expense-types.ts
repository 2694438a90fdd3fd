import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type ExpenseType, FIRST_USER_TYPE_OFFSET, FUEL_TYPE, isReservedExpenseName, sameExpenseName } from '../domain/expense-type.ts';
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { bool, defineEntity, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { failedConditions, queryRange, transactWrite, writeWithOptimisticRetry } from './requests.ts';

/** A user's type, under the user's partition; Fuel is built in and never stored. */
const expenseTypeEntity = defineEntity<ExpenseType, number>({
  keys: (expenseType, userUid) => keys.expenseType(userUid, expenseType.type),
  fields: { type: number('type'), name: text('name'), deleted: bool('deleted') },
});

const DUPLICATE = 'expense type already exists';

/** Fuel first, then the user's live types by id. */
export async function listExpenseTypes(userUid: number): Promise<ExpenseType[]> {
  const items = await queryRange(keys.expenseTypeRange(userUid));
  return [FUEL_TYPE, ...items.map(expenseTypeEntity.fromItem).filter((type) => !type.deleted)];
}

/** The type as a user's slip may reference it, deleted or not; Fuel for type 2. */
export async function findExpenseType(userUid: number, type: number): Promise<ExpenseType | undefined> {
  if (type === FUEL_TYPE.type) return FUEL_TYPE;
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.expenseType(userUid, type) }));
  return Item ? expenseTypeEntity.fromItem(Item) : undefined;
}

/**
 * The type and its name claim are written in one transaction, so one name wins under concurrency. A name
 * already claimed is refused before a type id is drawn, so a plain duplicate does not use one up.
 */
export async function addExpenseType(userUid: number, name: string): Promise<ExpenseType> {
  if (isReservedExpenseName(name)) throw new Conflict(DUPLICATE);
  const { Item: claimed } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.expenseTypeName(userUid, name) }));
  if (claimed) throw new Conflict(DUPLICATE);
  const added: ExpenseType = { type: (await nextId('expense-type')) + FIRST_USER_TYPE_OFFSET, name, deleted: false };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: expenseTypeEntity.toItem(added, userUid), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: nameClaim(userUid, added.type, name) },
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(DUPLICATE, { cause: error });
    throw error;
  }
  return added;
}

const BUSY = 'expense type is being changed by another request, try again';

/**
 * Renames a live type. The type's update is conditioned on the name read, so a concurrent rename or delete
 * makes it fail and the rename starts over from a fresh read: the claim always follows the live name. A name
 * that differs only in case or spacing keeps the claim; any other name moves it in the same transaction, and a
 * claim another type holds answers 409.
 */
export async function renameExpenseType(userUid: number, type: number, name: string): Promise<ExpenseType> {
  if (type === FUEL_TYPE.type) throw new BadRequest('type 2 (Fuel) is built in and cannot be edited');
  return writeWithOptimisticRetry({
    read: () => getLiveUserType(userUid, type),
    write: async (current) => {
      if (isReservedExpenseName(name)) throw new Conflict(DUPLICATE);
      const renameType = { Update: updateAsRead(userUid, current, { name }) };
      const moveClaim = sameExpenseName(current.name, name)
        ? []
        : [{ Delete: releaseClaim(userUid, type, current.name) }, { Put: nameClaim(userUid, type, name) }];
      await transactWrite([renameType, ...moveClaim]);
      return { type, name, deleted: false };
    },
    // Only the new name's claim failing, with the type as read, is another type holding the name.
    refuse: (error) => {
      const failed = failedConditions(error);
      return failed?.[2] && !failed[0] && !failed[1] ? new Conflict(DUPLICATE, { cause: error }) : undefined;
    },
    busyMessage: BUSY,
  });
}

/**
 * Soft delete: the type stays for old slips; its name is freed for a new type. Conditioned on the name read, so
 * a rename committed in between is read again and the claim released is always the live name's.
 */
export async function deleteExpenseType(userUid: number, type: number): Promise<void> {
  if (type === FUEL_TYPE.type) throw new BadRequest('type 2 (Fuel) is built in and cannot be deleted');
  await writeWithOptimisticRetry({
    read: () => getLiveUserType(userUid, type),
    write: (current) =>
      transactWrite([{ Update: updateAsRead(userUid, current, { deleted: true }) }, { Delete: releaseClaim(userUid, type, current.name) }]),
    busyMessage: BUSY,
  });
}

/** Strongly consistent, as an edit's retry must see the change that made its condition fail. */
async function getLiveUserType(userUid: number, type: number): Promise<ExpenseType> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: keys.expenseType(userUid, type), ConsistentRead: true }),
  );
  const found = Item ? expenseTypeEntity.fromItem(Item) : undefined;
  if (!found || found.deleted) throw NotFound.notLinked('expense type');
  return found;
}

/** An update of a live type conditioned on the name read, so a concurrent rename or delete makes it fail. */
function updateAsRead(userUid: number, current: ExpenseType, changes: Partial<ExpenseType>) {
  const set = expenseTypeEntity.update(changes);
  return {
    TableName: tableName(),
    Key: keys.expenseType(userUid, current.type),
    UpdateExpression: set?.UpdateExpression,
    ConditionExpression: 'deleted = :false AND #name = :seen',
    ExpressionAttributeNames: { ...set?.ExpressionAttributeNames, '#name': 'name' },
    ExpressionAttributeValues: { ...set?.ExpressionAttributeValues, ':false': false, ':seen': current.name },
  };
}

function nameClaim(userUid: number, type: number, name: string) {
  return {
    TableName: tableName(),
    Item: { ...keys.expenseTypeName(userUid, name), type },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

function releaseClaim(userUid: number, type: number, name: string) {
  return {
    TableName: tableName(),
    Key: keys.expenseTypeName(userUid, name),
    ConditionExpression: '#type = :type',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':type': type },
  };
}
