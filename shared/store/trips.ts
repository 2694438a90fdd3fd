import type { Trip } from '../domain/trip.ts';
import { defineEntity, nullableNumber, nullableText, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { type PagedRead, queryRange, readTaken } from './requests.ts';

/** A trip as stored: its attributes carry the domain's own field names. */
export const tripEntity = defineEntity<Trip>({
  keys: (trip) => keys.trip(trip.vehicleUid, trip.startTime),
  fields: {
    tripUid: number('tripUid'),
    vehicleUid: number('vehicleUid'),
    startTime: text('startTime'),
    stopTime: text('stopTime'),
    odometerAtStart: number('odometerAtStart'),
    distanceKm: number('distanceKm'),
    durationS: number('durationS'),
    maxSpeed: number('maxSpeed'),
    fuelStart: nullableNumber('fuelStart'),
    fuelEnd: nullableNumber('fuelEnd'),
    startLat: number('startLat'),
    startLng: number('startLng'),
    startLocation: text('startLocation'),
    stopLat: number('stopLat'),
    stopLng: number('stopLng'),
    stopLocation: text('stopLocation'),
    driverName: nullableText('driverName'),
    driverTagId: nullableText('driverTagId'),
  },
});

/** Trips that started between two UTC instants, oldest first: one Query per vehicle. */
export async function listTrips(vehicleUid: number, from: string, to: string): Promise<Trip[]> {
  const items = await queryRange(keys.tripRange(vehicleUid, from, to));
  return items.map(tripEntity.fromItem);
}

/** getTrips: a vehicle's trips in a range, oldest first, as far as the answer takes them (shared/paging). */
export function readTrips(vehicleUid: number, from: string, to: string, read: PagedRead<Trip>): Promise<Trip[]> {
  return readTaken(keys.tripRange(vehicleUid, from, to), tripEntity.fromItem, read);
}
