/**
 * A short standstill (a light) through the whole pipeline (processPositions on DynamoDB Local, read back through
 * getTrips) wherever the hours fall and however the stream cuts the drive: a 1 Hz real drive that stands 14 s at a
 * light, shifted so the standstill begins 40 minutes before an hour, on it, or 7 or 13 s before it (the standstill
 * across the hour), in batches of 1,000, 97 and 13 records, is the truth's one trip with the same distance and
 * duration each time. Contains enviroCar data, available under the Open Database License (ODbL) 1.0.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { ingest } from '../support/position-builders.ts';
import { atRate, type Fix, realDrives, recordsOf, thenParked, truthOf } from '../support/real-drives.ts';

const LIGHT_S = 14;
const PARKED_AFTER_S = 300;
const HOUR_MS = 3_600_000;
/** where the light begins: seconds before a whole hour (40 minutes before, on it, the light across it) */
const BEFORE_THE_HOUR_S = [2400, 0, 7, 13];
/**
 * The batch sizes the stream cuts the drive into. Each case runs every placement of the hours once, in batch sizes
 * rotated by the case's number, so the four cases together meet every pair of a placement and a size (every pair in
 * every case costs three times as long).
 */
const BATCH_SIZES = [1000, 97, 13];
const DRIVES = ['skoda-2020-03-04-drive3', 'kia-picanto-2020-03-04-drive2'];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const secondsOf = (shown: string | undefined) => Date.parse(`${String(shown).replace(' ', 'T')}Z`) / 1000;

/** The drive at 1 Hz, standing LIGHT_S seconds halfway (where it stood, speed 0), the rest of it that much later. */
function withLight(fixes: readonly Fix[]): { fixes: Fix[]; lightAt: number } {
  const n = Math.floor(fixes.length / 2);
  const light = fixes[n] as Fix;
  const standing = Array.from({ length: LIGHT_S }, (_, s) => ({
    ...light,
    at: light.at + (s + 1) * 1000,
    speed: light.speed === null ? null : 0,
  }));
  const after = fixes.slice(n + 1).map((fix) => ({ ...fix, at: fix.at + LIGHT_S * 1000 }));
  return { fixes: [...fixes.slice(0, n + 1), ...standing, ...after], lightAt: light.at };
}

/** The drive moved in time so its light begins `beforeS` seconds before a whole hour, then parked. */
function shifted(drive: { fixes: Fix[]; lightAt: number }, beforeS: number): Fix[] {
  const shiftMs = Math.ceil(drive.lightAt / HOUR_MS) * HOUR_MS + HOUR_MS - beforeS * 1000 - drive.lightAt;
  return thenParked(
    drive.fixes.map((fix) => ({ ...fix, at: fix.at + shiftMs })),
    PARKED_AFTER_S,
  );
}

async function tripsThroughThePipeline(fixes: readonly Fix[], withSpeed: boolean, batchSize: number) {
  const user = await givenUser();
  const vehicle = await givenVehicle(user, { odometerAtStart: 0, detection: { useIgnition: false } });
  const records = recordsOf(vehicle.imei, fixes, withSpeed);
  for (let i = 0; i < records.length; i += batchSize)
    expect(await ingest(records.slice(i, i + batchSize))).toMatchObject({ rejected: [], failedIds: [] });
  const range = { api_key: user.key, start_date: dayOf((fixes[0] as Fix).at), end_date: dayOf((fixes.at(-1) as Fix).at) };
  const trips = (await api.get('getTrips', range)).body.vehicles[0].trips as Array<Record<string, string>>;
  return trips.map((trip) => ({ distance: trip.distance, durationS: secondsOf(trip.stop_time) - secondsOf(trip.start_time) }));
}

describe('a short standstill through the pipeline', () => {
  const cases = DRIVES.flatMap((name) => [true, false].map((withSpeed) => ({ name, withSpeed })));
  for (const [caseNumber, { name, withSpeed }] of cases.entries())
    it(`never splits ${name} at a ${LIGHT_S} s light ` +
      `${withSpeed ? 'with' : 'without'} speed, wherever the hours fall, in any batches`, async () => {
      // Prepare
      const drive = withLight(atRate((realDrives.find((real) => real.name === name) as (typeof realDrives)[number]).fixes, 1));
      const truth = truthOf(shifted(drive, 0));

      // Act
      const found = [];
      for (const [i, beforeS] of BEFORE_THE_HOUR_S.entries()) {
        const batchSize = BATCH_SIZES[(i + caseNumber) % BATCH_SIZES.length] as number;
        found.push(await tripsThroughThePipeline(shifted(drive, beforeS), withSpeed, batchSize));
      }

      // Assess
      expect(truth.trips).toBe(1);
      for (const trips of found) expect(trips).toEqual(found[0]);
      expect(found[0]).toHaveLength(1);
    }, 300_000);
});
