import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FuelFill } from '../domain/fuel-fill.ts';
import { dynamo, tableName } from './client.ts';
import { absentWhenNull, defineEntity, nullableNumber, nullableText, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { type PagedRead, queryRange, readTaken } from './requests.ts';

/** A detected fill as stored: the domain's own field names, but slip_uid, absent until a slip claims the fill. */
export const fuelFillEntity = defineEntity<FuelFill>({
  keys: (fill) => ({ ...keys.fuelFill(fill.eventUid), ...keys.fuelFillTimeline(fill.vehicleUid, fill.at, fill.eventUid) }),
  fields: {
    eventUid: number('eventUid'),
    vehicleUid: number('vehicleUid'),
    at: text('at'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    location: text('location'),
    levelBefore: nullableNumber('levelBefore'),
    levelAfter: number('levelAfter'),
    fillQty: number('fillQty'),
    odometerKm: number('odometerKm'),
    engineHours: nullableNumber('engineHours'),
    operatorUid: nullableNumber('operatorUid'),
    operatorName: nullableText('operatorName'),
    tripUid: nullableNumber('tripUid'),
    distanceKm: nullableNumber('distanceKm'),
    durationS: nullableNumber('durationS'),
    fuelUsed: nullableNumber('fuelUsed'),
    slipUid: absentWhenNull('slip_uid'),
  },
});

export async function findFuelFill(eventUid: number): Promise<FuelFill | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.fuelFill(eventUid) }));
  return Item ? fuelFillEntity.fromItem(Item) : undefined;
}

/** getFuelFillReport: a vehicle's fills in a range, oldest first, as far as the answer takes them (shared/paging). */
export function readFuelFills(vehicleUid: number, from: string, to: string, read: PagedRead<FuelFill>): Promise<FuelFill[]> {
  return readTaken(keys.fuelFillRange(vehicleUid, from, to), fuelFillEntity.fromItem, read);
}

/** A vehicle's fills between two UTC instants, oldest first: one Query of gsi1. */
export async function listFuelFills(vehicleUid: number, from: string, to: string): Promise<FuelFill[]> {
  const items = await queryRange(keys.fuelFillRange(vehicleUid, from, to));
  return items.map(fuelFillEntity.fromItem);
}
