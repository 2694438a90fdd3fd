/**
 * No record can stall a vehicle: whatever a record carries (any field, any type, any size), the batch it arrives in
 * never fails for it, and clean points of the same vehicle are processed afterwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionRecord } from '../../shared/domain/tracking/position.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { anOperator } from '../support/operators-builders.ts';
import { aPositionRecord, CLIENT, DEPOT, drive, ingest } from '../support/position-builders.ts';

const DAY = '2026-11-05';
const RECEIVED = new Date(`${DAY}T08:00:00.000Z`);
/** Every field a record may carry. */
const FIELDS = Object.keys(PositionRecord.entries);

/** Any value of any type and size: JSON of every kind, texts up to 5,000 characters, numbers DynamoDB cannot store. */
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ maxLength: 5000, unit: 'binary' }),
  fc.constantFrom(1e300, -1e-300, 2 ** 62, 1e126, '1e999', '', ' ', '\u0000', 'x'.repeat(3000)),
  fc.double(),
);

/**
 * A record of the vehicle between 03:00 and 03:59 with any of its fields replaced by anything, or not an object at all: over
 * the gap rule's hour before the clean drive, so a poison record that is a valid point (a driver tag of any text) starts
 * a trip of its own rather than the clean drive's.
 */
const aPoisonRecord = (imei: string) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({
          second: fc.integer({ min: 0, max: 3599 }),
          overrides: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 4 }),
        })
        .map(({ second, overrides }) =>
          JSON.stringify(
            aPositionRecord(imei, new Date(Date.parse(`${DAY}T03:00:00.000Z`) + second * 1000).toISOString(), {
              ignition: true,
              speed: 20,
              ...overrides,
            }),
          ),
        ),
    },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );

describe('a batch of poison records', () => {
  it('never fails twice for a record, and the vehicle’s clean points are processed afterwards', async () => {
    const user = await givenUser();
    const tag = String(anOperator().tag_id);
    await api.post('addOperator', { ...anOperator({ tag_id: tag, fullname: 'Sipho Nkosi' }), api_key: user.key });
    await fc.assert(
      fc.asyncProperty(fc.context(), fc.integer({ min: 1, max: 1e9 }), async (context, seed) => {
        // Prepare
        const vehicle = await givenVehicle(user);
        const poison = fc.sample(fc.array(aPoisonRecord(vehicle.imei), { minLength: 1, maxLength: 30 }), {
          numRuns: 1,
          seed,
        })[0] as string[];
        context.log(JSON.stringify(poison).slice(0, 2000));
        // Act
        const first = await ingest(poison, `poison-${seed}`, RECEIVED);
        const again = await ingest(poison, `poison-${seed}`, RECEIVED);
        const clean = drive(vehicle.imei, `${DAY}T06:00:00.000Z`, 20, DEPOT, CLIENT, { driver_tag_id: tag });
        const after = await ingest(clean.records, `clean-${seed}`, RECEIVED);
        // Assess
        expect(first.failedIds).toEqual([]);
        expect(again.failedIds).toEqual([]);
        expect(after).toMatchObject({ failedIds: [], rejected: [] });
        const trips = (await api.get('getTrips', { api_key: user.key, start_date: DAY, end_date: DAY, vehicle_uid: vehicle.vehicleUid }))
          .body.vehicles[0].trips;
        expect(trips.at(-1)).toMatchObject({ stop_time: clean.stopTime.slice(0, 19).replace('T', ' '), driver_tag_id: tag });
      }),
      { numRuns: 12 },
    );
  });

  it('keeps the point of a 3,000-character driver tag without the tag, through a trip that ends', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const poisoned = drive(vehicle.imei, `${DAY}T05:00:00.000Z`, 10, DEPOT, CLIENT, { driver_tag_id: 'T'.repeat(3000) });
    const clean = drive(vehicle.imei, `${DAY}T06:00:00.000Z`, 10, CLIENT, DEPOT);
    // Act
    const first = await ingest(poisoned.records, undefined, RECEIVED);
    const after = await ingest(clean.records, undefined, RECEIVED);
    // Assess
    expect(first).toMatchObject({ failedIds: [], rejected: [], trips: 1, faults: { 'dropped reading': poisoned.records.length } });
    expect(after).toMatchObject({ failedIds: [], rejected: [], trips: 1 });
  });
});
