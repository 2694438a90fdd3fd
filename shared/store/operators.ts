import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Operator, OperatorChanges, OperatorFields } from '../domain/operator.ts';
import { Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { defineEntity, number, text } from './entity.ts';
import { keys, type Key } from './keys.ts';
import { type Item, queryRange, type TransactItems, transactWrite } from './requests.ts';

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
const MAX_ROUNDS = 8;

/** The user's operators by operator_uid. */
export async function listOperators(userUid: number): Promise<Operator[]> {
  const items = await queryRange(keys.operatorRange(userUid));
  return items.map(operatorEntity.fromItem);
}

async function findOperator(userUid: number, operatorUid: number): Promise<Operator | undefined> {
  const item = await getItem(keys.operator(userUid, operatorUid));
  return item ? operatorEntity.fromItem(item) : undefined;
}

/** The operator holding a tag, whoever owns it (tag_id is unique across users); the pipeline names a driver by it only within the vehicle's users. */
export async function findOperatorByTag(tagId: string): Promise<Operator | undefined> {
  const claim = await getItem(keys.operatorTag(tagId.trim()));
  return claim ? findOperator(Number(claim.user_uid), Number(claim.operator_uid)) : undefined;
}

/** The operator and its tag claim are written in one transaction, so one tag_id wins under concurrency. */
export async function addOperator(userUid: number, fields: OperatorFields): Promise<Operator> {
  const operator: Operator = { ...fields, operatorUid: await nextId('operator'), userUid };
  const putOperator = { Put: { TableName: tableName(), Item: operatorEntity.toItem(operator), ConditionExpression: 'attribute_not_exists(pk)' } };
  await untilWritten(() => write([putOperator, { Put: claimTag(operator, operator.tagId) }], 1));
  return operator;
}

/** Omitted fields keep their value; a new tag_id moves the claim in the same transaction as the update. */
export async function editOperator(userUid: number, operatorUid: number, changes: OperatorChanges): Promise<void> {
  await untilWritten(async () => {
    const current = await getOperator(userUid, operatorUid);
    const set = operatorEntity.update(changes);
    if (!set) return true;
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
    if (newTag === undefined || newTag === current.tagId) return write([update]);
    return write([update, { Delete: releaseTag(current) }, { Put: claimTag(current, newTag) }], 2);
  });
}

/** Hard delete: the operator and its claim go together, so the tag_id is free at once. */
export async function deleteOperator(userUid: number, operatorUid: number): Promise<void> {
  await untilWritten(async () => {
    const current = await getOperator(userUid, operatorUid);
    const deleteItself = {
      Delete: {
        TableName: tableName(),
        Key: keys.operator(userUid, operatorUid),
        ConditionExpression: 'tag_id = :currentTag',
        ExpressionAttributeValues: { ':currentTag': current.tagId },
      },
    };
    return write([deleteItself, { Delete: releaseTag(current) }]);
  });
}

/** The user's operator; NotFound when there is none or it is another user's. */
export async function getOperator(userUid: number, operatorUid: number): Promise<Operator> {
  const operator = await findOperator(userUid, operatorUid);
  if (!operator) throw NotFound.notLinked('operator');
  return operator;
}

/**
 * Runs an attempt until it writes. An attempt answers false when its read went stale (another
 * request changed or deleted the operator in between) or DynamoDB cancelled it for racing another
 * transaction on the same item; it is then read and tried again.
 */
async function untilWritten(attempt: () => Promise<boolean>): Promise<void> {
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    if (await attempt()) return;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * round));
  }
  throw new Conflict('operator is being changed by another request, try again');
}

/** True when written; a failed claim Put (at claimIndex) is a taken tag; other failures ask for a retry. */
async function write(items: TransactItems, claimIndex?: number): Promise<boolean> {
  try {
    await transactWrite(items);
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
    const stale = codes.some((code, index) => code === 'ConditionalCheckFailed' && index !== claimIndex);
    if (stale) return false;
    if (claimIndex !== undefined && codes[claimIndex] === 'ConditionalCheckFailed') throw new Conflict(TAG_TAKEN);
    if (codes.includes('TransactionConflict')) return false;
    throw error;
  }
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

async function getItem(key: Key): Promise<Item | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: key }));
  return Item;
}
