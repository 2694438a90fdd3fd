/**
 * The seven real enviroCar drives through the whole pipeline (processPositions on DynamoDB Local, read back through
 * the API) as a device without ignition wiring sends them, with and without speed, at their own rate and others,
 * in stream-sized batches: the trips and kilometres of the truth rule in test/support/real-drives.ts. Contains
 * enviroCar data, available under the Open Database License (ODbL) 1.0 (test/fixtures/envirocar-drives.json).
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { ingest } from '../support/position-builders.ts';
import { atRate, type Fix, realDrives, recordsOf, thenParked, truthOf } from '../support/real-drives.ts';

const DISTANCE_TOLERANCE = 0.02;
/** records per batch: Kinesis' most, what a stream brings a vehicle reporting every second in a quarter of an hour */
const BATCH = 1000;
/** getVehicles shows curent_odo to 0.1 km, getTrips a distance to 0.01 km */
const ODOMETER_PRECISION_KM = 0.05;
const TRIP_DISTANCE_PRECISION_KM = 0.005;
const PARKED_AFTER_S = 300;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function throughThePipeline(fixes: readonly Fix[], withSpeed: boolean) {
  const user = await givenUser();
  const vehicle = await givenVehicle(user, { odometerAtStart: 0, detection: { useIgnition: false } });
  const records = recordsOf(vehicle.imei, fixes, withSpeed);
  for (let i = 0; i < records.length; i += BATCH) {
    const outcome = await ingest(records.slice(i, i + BATCH));
    expect(outcome).toMatchObject({ rejected: [], failedIds: [] });
  }
  const range = { api_key: user.key, start_date: dayOf((fixes[0] as Fix).at), end_date: dayOf((fixes.at(-1) as Fix).at) };
  const [trips, vehicles] = await Promise.all([api.get('getTrips', range), api.get('getVehicles', { api_key: user.key })]);
  return { trips: trips.body.vehicles[0].trips as Array<Record<string, string>>, odometer: Number(vehicles.body.vehicles[0].curent_odo) };
}

const rateOf = (everyS: number): string => (everyS ? `at ${everyS} s` : 'at its own rate');

describe('real drives through the pipeline', () => {
  for (const { name, fixes } of realDrives)
    for (const everyS of [0, 1, 60])
      for (const withSpeed of [true, false])
        it(`finds the trips and kilometres of ${name} ${rateOf(everyS)} ${withSpeed ? 'with' : 'without'} speed`, async () => {
          // Prepare: the drive, then parked long enough to end its last trip
          const reported = thenParked(everyS ? atRate(fixes, everyS) : fixes, PARKED_AFTER_S);
          const truth = truthOf(reported);

          // Act
          const outcome = await throughThePipeline(reported, withSpeed);

          // Assess
          expect(outcome.trips).toHaveLength(truth.trips);
          expect(Math.abs(outcome.odometer - truth.distanceKm)).toBeLessThanOrEqual(
            truth.distanceKm * DISTANCE_TOLERANCE + ODOMETER_PRECISION_KM,
          );
          const tripsKm = outcome.trips.reduce((sum, trip) => sum + Number(trip.distance), 0);
          const shownPrecisionKm = ODOMETER_PRECISION_KM + outcome.trips.length * TRIP_DISTANCE_PRECISION_KM;
          expect(tripsKm).toBeLessThanOrEqual(outcome.odometer + shownPrecisionKm + 1e-9);
        });
});
