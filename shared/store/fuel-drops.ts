/**
 * Detected fuel drops (fuel.dropped), one item each in the vehicle's partition: what a re-detection's drops are
 * compared with, so a drop it no longer finds is voided and one it finds anew is emitted (shared/pipeline/track-vehicle.ts).
 */
import type { DetectedDrop } from '../domain/events/fuel-drops.ts';
import { bool, defineEntity, number, text } from './entity.ts';
import { keys } from './keys.ts';
import { queryRange } from './requests.ts';

export interface StoredDrop extends DetectedDrop {
  vehicleUid: number;
}

export const fuelDropEntity = defineEntity<StoredDrop>({
  keys: (drop) => keys.fuelDrop(drop.vehicleUid, drop.at),
  fields: {
    vehicleUid: number('vehicleUid'),
    at: text('at'),
    latitude: number('latitude'),
    longitude: number('longitude'),
    levelBefore: number('levelBefore'),
    levelAfter: number('levelAfter'),
    dropQty: number('dropQty'),
    moving: bool('moving'),
  },
});

/** A vehicle's drops from a UTC instant on, oldest first: one Query. */
export async function listFuelDrops(vehicleUid: number, from: string): Promise<StoredDrop[]> {
  const items = await queryRange(keys.fuelDropRange(vehicleUid, from));
  return items.map(fuelDropEntity.fromItem);
}
