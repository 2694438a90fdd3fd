/**
 * Bounded state at any rate: a day of 1 Hz points, parked and moving, with and without speed, through the pipeline on
 * DynamoDB Local; every item it leaves (checkpoints, the track item, history chunks, trips) stays far below DynamoDB's
 * 400 KB item limit. The largest of each kind is printed. Contains enviroCar data, available under the Open Database
 * License (ODbL) 1.0 (test/fixtures/envirocar-drives.json).
 */
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { batchGet, type Item, queryRange } from '../../shared/store/requests.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { itemBytes } from '../support/item-size.ts';
import { ingest } from '../support/position-builders.ts';
import { dayAt1Hz, recordsOf } from '../support/real-drives.ts';

/** DynamoDB's limit, and what "far below" means here: a quarter of it. */
const ITEM_LIMIT_BYTES = 400 * 1024;
const FAR_BELOW = ITEM_LIMIT_BYTES / 4;
/** five minutes of points per batch: the Kinesis window carries 30 of them; a batch's size bounds only its chunks */
const BATCH_POINTS = 300;

async function itemsOf(vehicleUid: number): Promise<{ track: Item[]; checkpoints: Item[]; chunks: Item[]; trips: Item[] }> {
  const [track, checkpoints, chunks, trips] = await Promise.all([
    batchGet([keys.trackState(vehicleUid)]),
    queryRange(keys.checkpointRange(vehicleUid, '9999')),
    queryRange(keys.positionChunkRange(vehicleUid, '0000', '9999')),
    queryRange(keys.tripRange(vehicleUid, '0000', '9999')),
  ]);
  return { track, checkpoints, chunks, trips };
}

describe.concurrent('item sizes over a day at 1 Hz', () => {
  for (const withSpeed of [true, false])
    it(`keeps every item far below 400 KB ${withSpeed ? 'with' : 'without'} speed, parked and moving`, { timeout: 600_000 }, async () => {
      // Prepare
      const user = await givenUser();
      const vehicle = await givenVehicle(user, { detection: { useIgnition: false } });
      const records = recordsOf(vehicle.imei, dayAt1Hz('2026-10-20T00:00:00Z'), withSpeed);

      // Act: in arrival order, each batch received as its last point was made
      for (let i = 0; i < records.length; i += BATCH_POINTS) {
        const batch = records.slice(i, i + BATCH_POINTS);
        const outcome = await ingest(batch, undefined, new Date(Date.parse(batch.at(-1)?.gps_datetime as string) + 1000));
        expect(outcome.failedIds).toEqual([]);
        expect(outcome.rejected).toEqual([]);
      }

      // Assess
      const items = await itemsOf(vehicle.vehicleUid);
      const largest = Object.fromEntries(Object.entries(items).map(([kind, list]) => [kind, Math.max(0, ...list.map(itemBytes))]));
      console.log(`largest items over a day at 1 Hz ${withSpeed ? 'with' : 'without'} speed (bytes):`, JSON.stringify(largest));
      expect(items.checkpoints.length).toBeGreaterThanOrEqual(24);
      expect(items.trips.length).toBeGreaterThan(0);
      for (const [kind, bytes] of Object.entries(largest)) expect(bytes, kind).toBeLessThan(FAR_BELOW);
    });
});
