import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Trip } from '../domain/trip.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { type Item, queryRange } from './requests.ts';

/** Stores a trip once: a trip with the same vehicle and start is already there when a batch is replayed. */
export async function saveTrip(trip: Trip): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.trip(trip.vehicleUid, trip.startTime), ...trip },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Trips that started between two UTC instants, oldest first: one Query per vehicle. */
export async function listTrips(vehicleUid: number, from: string, to: string): Promise<Trip[]> {
  const items = await queryRange(keys.tripRange(vehicleUid, from, to));
  return items.map(tripFromItem);
}

function tripFromItem(item: Item): Trip {
  const { pk: _pk, sk: _sk, ...trip } = item;
  return trip as unknown as Trip;
}
