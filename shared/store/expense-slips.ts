import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  builtInTypeName,
  type ExpenseSlip,
  type NamedExpenseSlip,
  type NewExpenseSlip,
  type NewFillSlip,
  SLIP_TYPE_INVALID,
  type SlipChanges,
} from '../domain/expense-slip.ts';
import { FILL_SLIP_TYPE, FUEL_TYPE } from '../domain/expense-type.ts';
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { nextId } from './counters.ts';
import { absentWhenNull, defineEntity, number, text } from './entity.ts';
import { findExpenseType } from './expense-types.ts';
import { keys } from './keys.ts';
import {
  batchGet,
  failedConditions,
  itemKey,
  type PagedRead,
  readTaken,
  setExpression,
  transactWrite,
  writeWithOptimisticRetry,
} from './requests.ts';
import { findVehicleForUser, getVehicleForUser } from './vehicles.ts';

const BUSY = 'slip is being changed by another request, try again';

/**
 * An expense or fuel slip on a vehicle linked to the user. The vehicle and the type are looked up
 * together and judged in the spec's order: vehicle first, then type.
 */
export async function addExpenseSlip(userUid: number, details: NewExpenseSlip): Promise<ExpenseSlip> {
  const [, type] = await Promise.all([
    getVehicleForUser(userUid, details.vehicleUid),
    details.type === FILL_SLIP_TYPE ? undefined : findExpenseType(userUid, details.type),
  ]);
  if (!type || type.deleted) throw new BadRequest(SLIP_TYPE_INVALID);
  const slip: ExpenseSlip = {
    ...details,
    slipUid: await nextId('slip'),
    typeOwnerUid: type.type === FUEL_TYPE.type ? null : userUid,
    eventUid: null,
  };
  await dynamo().send(
    new PutCommand({ TableName: tableName(), Item: slipEntity.toItem(slip), ConditionExpression: 'attribute_not_exists(pk)' }),
  );
  return slip;
}

/**
 * The fill slip of a fuel fill (addFuelFillSlip). The fill's claim is written in the same transaction,
 * so exactly one slip per fill survives concurrent calls; the loser learns the winner's slip_uid.
 */
export async function addFillSlip(fill: NewFillSlip): Promise<ExpenseSlip> {
  const slip: ExpenseSlip = { ...fill, slipUid: await nextId('slip'), type: FILL_SLIP_TYPE, typeOwnerUid: null, comment: '' };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: slipEntity.toItem(slip), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.fuelFill(fill.eventUid),
          UpdateExpression: 'SET slip_uid = :slip',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(slip_uid)',
          ExpressionAttributeValues: { ':slip': slip.slipUid },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
  } catch (error) {
    if (failedConditions(error)?.[1]) {
      const existing = claimedSlipUid(error);
      throw new Conflict(`a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid ${existing}`, {
        cause: error,
      });
    }
    throw error;
  }
  return slip;
}

/** Any slip, fill slips included, whose vehicle is linked to the user, with its type's current name. */
export async function getSlipForUser(userUid: number, slipUid: number): Promise<NamedExpenseSlip> {
  const slip = await getSlip(slipUid);
  const [vehicle, named] = await Promise.all([findVehicleForUser(userUid, slip.vehicleUid), withTypeNames([slip])]);
  if (!vehicle) throw NotFound.notLinked('slip');
  return named[0] as NamedExpenseSlip;
}

/**
 * A vehicle's expense and fuel slips between two local datetimes (inclusive), by event_datetime, as far as the answer
 * takes them (shared/paging): one Query on the timeline, run alongside the link check, then one BatchGetItem for the type names.
 */
export async function readExpenseSlips(
  userUid: number,
  vehicleUid: number,
  from: string,
  to: string,
  read: PagedRead<ExpenseSlip>,
): Promise<NamedExpenseSlip[]> {
  const [, slips] = await Promise.all([
    getVehicleForUser(userUid, vehicleUid),
    readTaken(keys.slipTimelineRange(vehicleUid, from, to), slipEntity.fromItem, read),
  ]);
  return withTypeNames(slips);
}

/**
 * Changes the fields given; a `type` is accepted only when it is the slip's own. event_datetime and the
 * timeline key change in the same UpdateItem, so the list order never disagrees with the slip.
 */
export async function editExpenseSlip(userUid: number, slipUid: number, changes: SlipChanges, type?: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => getLinkedSlip(userUid, slipUid),
    write: async (slip) => {
      if (type !== undefined && type !== slip.type) throw new BadRequest('type cannot be changed: delete the slip and add a new one');
      const timeline =
        changes.eventDatetime !== undefined && slip.type !== FILL_SLIP_TYPE
          ? keys.slipTimeline(slip.vehicleUid, changes.eventDatetime, slipUid)
          : {};
      const update = setExpression({ ...slipEntity.attributes(changes), ...timeline });
      if (!update) return;
      await dynamo().send(
        new UpdateCommand({ TableName: tableName(), Key: keys.slip(slipUid), ...update, ConditionExpression: 'attribute_exists(pk)' }),
      );
    },
    busyMessage: BUSY,
  });
}

/** Hard delete; a fill slip frees its fill's claim in the same transaction, so the fill can get a new slip. */
export async function deleteExpenseSlip(userUid: number, slipUid: number): Promise<void> {
  await writeWithOptimisticRetry({
    read: () => getLinkedSlip(userUid, slipUid),
    write: (slip) =>
      transactWrite([
        { Delete: { TableName: tableName(), Key: keys.slip(slipUid), ConditionExpression: 'attribute_exists(pk)' } },
        ...(slip.eventUid === null ? [] : [{ Update: releaseFillClaim(slip.eventUid, slipUid) }]),
      ]),
    busyMessage: BUSY,
  });
}

/** Only the claim this slip holds is released, never one a newer slip of the fill took. */
function releaseFillClaim(eventUid: number, slipUid: number) {
  return {
    TableName: tableName(),
    Key: keys.fuelFill(eventUid),
    UpdateExpression: 'REMOVE slip_uid',
    ConditionExpression: 'attribute_exists(pk) AND slip_uid = :slip',
    ExpressionAttributeValues: { ':slip': slipUid },
  };
}

/** Slips by id in one BatchGetItem (the fuel fill report's linked fill slips). */
export async function findSlips(slipUids: readonly number[]): Promise<ExpenseSlip[]> {
  if (slipUids.length === 0) return [];
  return (await batchGet(slipUids.map((slipUid) => keys.slip(slipUid)))).map(slipEntity.fromItem);
}

/** Strongly consistent, as an edit's retry must see the change that made its condition fail. */
async function getSlip(slipUid: number): Promise<ExpenseSlip> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.slip(slipUid), ConsistentRead: true }));
  if (!Item) throw NotFound.notLinked('slip');
  return slipEntity.fromItem(Item);
}

async function getLinkedSlip(userUid: number, slipUid: number): Promise<ExpenseSlip> {
  const slip = await getSlip(slipUid);
  if (!(await findVehicleForUser(userUid, slip.vehicleUid))) throw NotFound.notLinked('slip');
  return slip;
}

/** Reads the current name of every user type the slips use in one BatchGetItem; deleted types keep their last name. */
async function withTypeNames(slips: ExpenseSlip[]): Promise<NamedExpenseSlip[]> {
  const typeKey = (slip: ExpenseSlip) => keys.expenseType(slip.typeOwnerUid ?? 0, slip.type);
  const lookups = new Map(
    slips
      .filter((slip) => builtInTypeName(slip.type) === undefined)
      .map((slip) => typeKey(slip))
      .map((key) => [itemKey(key), key]),
  );
  const items = lookups.size === 0 ? [] : await batchGet([...lookups.values()]);
  const names = new Map(items.map((item) => [itemKey(item), String(item.name)]));
  return slips.map((slip) => ({ ...slip, typeName: builtInTypeName(slip.type) ?? names.get(itemKey(typeKey(slip))) ?? '' }));
}

/** The winner's slip_uid from the claim's condition failure (DynamoDB returns the item as raw attribute values). */
function claimedSlipUid(error: unknown): string {
  const reasons = (error as { CancellationReasons?: { Item?: Record<string, { N?: string }> }[] }).CancellationReasons;
  return reasons?.[1]?.Item?.slip_uid?.N ?? '';
}

/** A slip as stored; fill slips stay off the timeline, so they are not listed with expenses. */
const slipEntity = defineEntity<ExpenseSlip>({
  keys: (slip) => ({
    ...keys.slip(slip.slipUid),
    ...(slip.type === FILL_SLIP_TYPE ? {} : keys.slipTimeline(slip.vehicleUid, slip.eventDatetime, slip.slipUid)),
  }),
  fields: {
    slipUid: number('slip_uid'),
    vehicleUid: number('vehicle_uid'),
    type: number('type'),
    typeOwnerUid: absentWhenNull('type_owner_uid'),
    slipNumber: text('slip_number'),
    qty: text('slip_qty'),
    amount: text('slip_amount'),
    eventDatetime: text('event_datetime'),
    comment: text('comment'),
    eventUid: absentWhenNull('event_uid'),
  },
});
