import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Operator, OperatorChanges, OperatorFields } from '../domain/operator.ts';
import { Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, number, text } from './entity.ts';
import { type Key, keys } from './keys.ts';
import { failedConditions, type Item, queryRange, transactWrite, writeWithOptimisticRetry } from './requests.ts';

/** An operator as stored: attribute names are the spec's parameter names; the item sits under its owner's partition. */
const operatorEntity = defineEntity<Operator>({
  keys: (operator) => keys.operator(operator.userUid, operator.operatorUid),
  fields: {
    operatorUid: number('operator_uid'),
    userUid: number('user_uid'),
    fullname: text('fullname'),
    idNumber: text('id_number'),
    tagId: text('tag_id'),
    defaultTripType: number('default_trip_type'),
    activeFlag: number('active_flag'),
    mobileNumber: text('mobile_number'),
    homeNumber: text('home_number'),
    employeeNumber: text('employee_number'),
    currentPoints: text('current_points'),
    homeAddress: text('home_address'),
    nextOfKin: text('next_of_kin'),
    nextOfKinContactNumber: text('next_of_kin_contact_number'),
    emailAddress: text('email_address'),
    driverLicenceExpiry: text('driver_licence_expiry_datetime'),
    pdpExpiry: text('pdp_expiry_datetime'),
    dgpExpiry: text('dgp_expiry_datetime'),
    mcExpiry: text('mc_expiry_datetime'),
  },
});
const TAG_TAKEN = 'tag_id already exists';
const BUSY = 'operator is being changed by another request, try again';

/** The user's operators by operator_uid. */
export async function listOperators(userUid: number): Promise<Operator[]> {
  const items = await queryRange(keys.operatorRange(userUid));
  return items.map(operatorEntity.fromItem);
}

/**
 * The user's operator; NotFound when there is none or it is another user's. An edit reads strongly consistently, to see the
 * change that made its condition fail.
 */
export async function getOperator(userUid: number, operatorUid: number, consistentRead = false): Promise<Operator> {
  const item = await getItem(keys.operator(userUid, operatorUid), consistentRead);
  if (!item) throw NotFound.notLinked('operator');
  return operatorEntity.fromItem(item);
}

/**
 * The operator holding a tag, whoever owns it (tag_id is unique across users); the pipeline names a driver by it only within the
 * vehicle's users.
 */
export async function findOperatorByTag(tagId: string): Promise<Operator | undefined> {
  const claim = await getItem(keys.operatorTag(tagId.trim()));
  const item = claim && (await getItem(keys.operator(Number(claim.user_uid), Number(claim.operator_uid))));
  return item ? operatorEntity.fromItem(item) : undefined;
}

/** The operator and its tag claim are written in one transaction, so one tag_id wins under concurrency. */
export async function addOperator(userUid: number, fields: OperatorFields): Promise<Operator> {
  const operator: Operator = { ...fields, operatorUid: await nextId('operator'), userUid };
  const putOperator = {
    Put: { TableName: tableName(), Item: operatorEntity.toItem(operator), ConditionExpression: 'attribute_not_exists(pk)' },
  };
  try {
    await transactWrite([putOperator, { Put: claimTag(operator, operator.tagId) }]);
  } catch (error) {
    if (failedConditions(error)?.[1]) throw new Conflict(TAG_TAKEN, { cause: error });
    throw error;
  }
  return operator;
}

/**
 * Omitted fields keep their value; a new tag_id moves the claim in the same transaction as the update. The
 * update is conditioned on the tag read, so a concurrent tag change is read again rather than undone.
 */
export async function editOperator(userUid: number, operatorUid: number, changes: OperatorChanges): Promise<void> {
  const set = operatorEntity.update(changes);
  await writeWithOptimisticRetry({
    read: () => getOperator(userUid, operatorUid, true),
    write: async (current) => {
      if (!set) return;
      const update = {
        Update: {
          TableName: tableName(),
          Key: keys.operator(userUid, operatorUid),
          ...set,
          ConditionExpression: 'tag_id = :currentTag',
          ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':currentTag': current.tagId },
        },
      };
      const newTag = changes.tagId;
      const moveClaim =
        newTag === undefined || newTag === current.tagId ? [] : [{ Delete: releaseTag(current) }, { Put: claimTag(current, newTag) }];
      await transactWrite([update, ...moveClaim]);
    },
    // Only the new tag's claim failing, with the operator as read, is another operator holding the tag.
    refuse: (error) => {
      const failed = failedConditions(error);
      return failed?.[2] && !failed[0] && !failed[1] ? new Conflict(TAG_TAKEN, { cause: error }) : undefined;
    },
    busyMessage: BUSY,
  });
}

/** Hard delete: the operator and its claim go together, so the tag_id is free at once. */
export async function deleteOperator(userUid: number, operatorUid: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => getOperator(userUid, operatorUid, true),
    write: (current) =>
      transactWrite([
        {
          Delete: {
            TableName: tableName(),
            Key: keys.operator(userUid, operatorUid),
            ConditionExpression: 'tag_id = :currentTag',
            ExpressionAttributeValues: { ':currentTag': current.tagId },
          },
        },
        { Delete: releaseTag(current) },
      ]),
    busyMessage: BUSY,
  });
}

function claimTag(operator: Operator, tagId: string) {
  return {
    TableName: tableName(),
    Item: { ...keys.operatorTag(tagId), user_uid: operator.userUid, operator_uid: operator.operatorUid },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** Only this operator's own claim is released, never one another operator took meanwhile. */
function releaseTag(operator: Operator) {
  return {
    TableName: tableName(),
    Key: keys.operatorTag(operator.tagId),
    ConditionExpression: 'operator_uid = :operatorUid',
    ExpressionAttributeValues: { ':operatorUid': operator.operatorUid },
  };
}

async function getItem(key: Key, consistentRead = false): Promise<Item | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistentRead }));
  return Item;
}
