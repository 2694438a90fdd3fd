import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Operator, type OperatorChanges, type OperatorFields, OPERATOR_TEXT_FIELDS } from '../domain/operator.ts';
import { Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { keys, type Key } from './keys.ts';
import { failedConditions, type Item, queryPrefix, setExpression, transactWrite, writeWithOptimisticRetry } from './requests.ts';

const NOT_FOUND = 'operator not found or not linked to this api key';
const TAG_TAKEN = 'tag_id already exists';
const BUSY = 'operator is being changed by another request, try again';

/** The user's operators by operator_uid. */
export async function listOperators(userUid: number): Promise<Operator[]> {
  const items = await queryPrefix(keys.user(userUid).pk, keys.operatorsPrefix);
  return items.map(operatorFromItem);
}

export async function findOperator(userUid: number, operatorUid: number): Promise<Operator | undefined> {
  const item = await getItem(keys.operator(userUid, operatorUid));
  return item ? operatorFromItem(item) : undefined;
}

/** The operator holding a tag, whoever owns it (tag_id is unique across users); the pipeline names a driver by it only within the vehicle's users. */
export async function findOperatorByTag(tagId: string): Promise<Operator | undefined> {
  const claim = await getItem(keys.operatorTag(tagId.trim()));
  return claim ? findOperator(Number(claim.user_uid), Number(claim.operator_uid)) : undefined;
}

/** The operator and its tag claim are written in one transaction, so one tag_id wins under concurrency. */
export async function addOperator(userUid: number, fields: OperatorFields): Promise<Operator> {
  const operator: Operator = { ...fields, operator_uid: await nextId('operator'), user_uid: userUid };
  const putOperator = {
    Put: {
      TableName: tableName(),
      Item: { ...keys.operator(userUid, operator.operator_uid), ...operator },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  try {
    await transactWrite([putOperator, { Put: claimTag(operator, operator.tag_id) }]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(TAG_TAKEN);
    throw error;
  }
  return operator;
}

/**
 * Omitted fields keep their value; a new tag_id moves the claim in the same transaction as the update. The
 * update is conditioned on the tag read, so a concurrent tag change is read again rather than undone.
 */
export async function editOperator(userUid: number, operatorUid: number, changes: OperatorChanges): Promise<void> {
  const set = setExpression(changes);
  await writeWithOptimisticRetry({
    read: () => readOperator(userUid, operatorUid),
    write: async (current) => {
      if (!set) return;
      const update = {
        Update: {
          TableName: tableName(),
          Key: keys.operator(userUid, operatorUid),
          ...set,
          ConditionExpression: 'tag_id = :currentTag',
          ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':currentTag': current.tag_id },
        },
      };
      const newTag = changes.tag_id;
      const moveClaim = newTag === undefined || newTag === current.tag_id ? [] : [{ Delete: releaseTag(current) }, { Put: claimTag(current, newTag) }];
      await transactWrite([update, ...moveClaim]);
    },
    // Only the new tag's claim failing, with the operator as read, is another operator holding the tag.
    refuse: (error) => {
      const failed = failedConditions(error);
      return failed?.[2] && !failed[0] && !failed[1] ? new Conflict(TAG_TAKEN) : undefined;
    },
    busyMessage: BUSY,
  });
}

/** Hard delete: the operator and its claim go together, so the tag_id is free at once. */
export async function deleteOperator(userUid: number, operatorUid: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => readOperator(userUid, operatorUid),
    write: (current) =>
      transactWrite([
        {
          Delete: {
            TableName: tableName(),
            Key: keys.operator(userUid, operatorUid),
            ConditionExpression: 'tag_id = :currentTag',
            ExpressionAttributeValues: { ':currentTag': current.tag_id },
          },
        },
        { Delete: releaseTag(current) },
      ]),
    busyMessage: BUSY,
  });
}

/** Strongly consistent, as an edit's retry must see the change that made its condition fail. */
async function readOperator(userUid: number, operatorUid: number): Promise<Operator> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.operator(userUid, operatorUid), ConsistentRead: true }));
  if (!Item) throw new NotFound(NOT_FOUND);
  return operatorFromItem(Item);
}

function claimTag(operator: Operator, tagId: string) {
  return {
    TableName: tableName(),
    Item: { ...keys.operatorTag(tagId), user_uid: operator.user_uid, operator_uid: operator.operator_uid },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** Only this operator's own claim is released, never one another operator took meanwhile. */
function releaseTag(operator: Operator) {
  return {
    TableName: tableName(),
    Key: keys.operatorTag(operator.tag_id),
    ConditionExpression: 'operator_uid = :operatorUid',
    ExpressionAttributeValues: { ':operatorUid': operator.operator_uid },
  };
}

async function getItem(key: Key): Promise<Item | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: key }));
  return Item;
}

function operatorFromItem(item: Item): Operator {
  const texts = Object.fromEntries(OPERATOR_TEXT_FIELDS.map((name) => [name, String(item[name] ?? '')]));
  return {
    ...(texts as Record<(typeof OPERATOR_TEXT_FIELDS)[number], string>),
    default_trip_type: Number(item.default_trip_type),
    active_flag: Number(item.active_flag),
    operator_uid: Number(item.operator_uid),
    user_uid: Number(item.user_uid),
  };
}
