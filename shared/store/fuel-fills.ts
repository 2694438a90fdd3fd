import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { FuelFill } from '../domain/fuel-fill.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { type Item, queryRange } from './requests.ts';

export function fuelFillItem(fill: FuelFill): Item {
  const { slipUid, ...detected } = fill;
  return {
    ...keys.fuelFill(fill.eventUid),
    ...keys.fuelFillTimeline(fill.vehicleUid, fill.at, fill.eventUid),
    ...detected,
    ...(slipUid === null ? {} : { slip_uid: slipUid }),
  };
}

/** Only for fills made outside the pipeline (tests): the pipeline writes fills inside its batch transaction. */
export async function saveFuelFill(fill: FuelFill): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: fuelFillItem(fill) }));
}

export async function findFuelFill(eventUid: number): Promise<FuelFill | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.fuelFill(eventUid) }));
  return Item ? fuelFillFromItem(Item) : undefined;
}

/** A vehicle's fills between two UTC instants, oldest first: one Query of gsi1. */
export async function listFuelFills(vehicleUid: number, from: string, to: string): Promise<FuelFill[]> {
  const items = await queryRange(keys.fuelFillRange(vehicleUid, from, to));
  return items.map(fuelFillFromItem);
}

function fuelFillFromItem(item: Item): FuelFill {
  const { pk: _pk, sk: _sk, gsi1pk: _gsi1pk, gsi1sk: _gsi1sk, slip_uid, ...fill } = item;
  return { ...(fill as Omit<FuelFill, 'slipUid'>), slipUid: slip_uid === undefined ? null : Number(slip_uid) };
}
