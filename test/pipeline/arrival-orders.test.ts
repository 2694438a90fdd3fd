/**
 * The simulator's ground truth through the whole pipeline (DynamoDB Local, the API) under the orders positions
 * really arrive in: every order gives the trips, fills, odometer and engine hours of in-order delivery, and the truth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { processPositions } from '../../shared/pipeline/process-positions.ts';
import { demoFleetDay, interleave, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { api } from '../support/api.ts';
import { arrivalOrders, type Batch } from '../support/arrival-orders.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';

const DATE = '2026-11-01';
const BATCH_SIZE = 400;
const DRIVING_SAMPLE_S = 30;
const DISTANCE_TOLERANCE = 0.01;
const FILL_TOLERANCE = 0.01;

type Order = (records: readonly SimulatedRecord[]) => Array<Batch<SimulatedRecord>>;

const orders: Record<string, Order> = {
  'in order': (records) => arrivalOrders.inOrder(records, BATCH_SIZE),
  'reversed per chunk': (records) => arrivalOrders.reversedPerChunk(records, BATCH_SIZE),
  'with a 2-hour stretch delivered after the rest': (records) => arrivalOrders.lateStretch(records, BATCH_SIZE, `${DATE}T07:00:00.000Z`),
  shuffled: (records) => arrivalOrders.shuffled(records, BATCH_SIZE, 20261123),
  replayed: (records) => arrivalOrders.replayed(records, BATCH_SIZE),
};

interface Delivered {
  days: SimulatedDay[];
  trips: Array<Array<Record<string, string>>>;
  fills: Array<Array<Record<string, number>>>;
  odometers: string[];
}

/** One demo fleet day (fresh IMEIs) delivered in the given order to a new user's vehicles. */
async function deliver(order: Order): Promise<Delivered> {
  const user: TestUser = await givenUser();
  const days = demoFleetDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 1);
  const vehicles = await Promise.all(
    days.map(({ vehicle }) =>
      givenVehicle(user, {
        imei: vehicle.imei,
        odometerAtStart: vehicle.odometerKm,
        fuelCapacity: vehicle.fuelCapacity,
        fuelFactor: vehicle.fuelFactor,
        ...(vehicle.ignitionWired ? {} : { detection: { useIgnition: false } }),
      }),
    ),
  );
  for (const batch of order(interleave(days))) {
    const outcome = await processPositions(
      batch.records.map((record, n) => ({ id: String(n), data: JSON.stringify(record) })),
      { batchName: `${user.userUid}-${batch.name}` },
    );
    expect(outcome).toMatchObject({ failedIds: [], rejected: [] });
  }
  const range = { api_key: user.key, start_date: DATE, end_date: DATE };
  const trips = (await api.get('getTrips', range)).body.vehicles;
  const fills = await Promise.all(
    vehicles.map(async (vehicle) => (await api.get('getFuelFillReport', { ...range, vehicle_uid: vehicle.vehicleUid })).body.fills),
  );
  const listed = (await api.get('getVehicles', { api_key: user.key })).body.vehicles;
  return {
    days,
    trips: vehicles.map(
      (vehicle) => trips.find((entry: { vehicle_uid: string }) => entry.vehicle_uid === String(vehicle.vehicleUid)).trips,
    ),
    fills,
    odometers: vehicles.map(
      (vehicle) =>
        listed.find((entry: { vehicle_uid: string | number }) => String(entry.vehicle_uid) === String(vehicle.vehicleUid)).curent_odo,
    ),
  };
}

const seconds = (a: string, b: string): number =>
  Math.abs(Date.parse(`${a.replace(' ', 'T')}Z`) - Date.parse(`${b.replace(' ', 'T')}Z`)) / 1000;
const relativeError = (measured: number, truth: number): number => Math.abs(measured - truth) / truth;
const figures = ({ trips, fills, odometers }: Delivered) => ({
  trips: trips.map((list) => list.map(({ trip_uid: _uid, ...trip }) => trip)),
  fills: fills.map((list) => list.map(({ event_uid: _uid, trip_uid: _trip, ...fill }) => fill)),
  odometers,
});

const delivered = new Map<string, Delivered>();

beforeAll(async () => {
  for (const [name, order] of Object.entries(orders)) delivered.set(name, await deliver(order));
}, 240_000);

describe('a demo fleet day delivered in any order', () => {
  it.each(Object.keys(orders))('finds the true trips and fills when delivered %s', (name) => {
    const { days, trips, fills } = delivered.get(name) as Delivered;
    days.forEach((day, v) => {
      expect(trips[v]).toHaveLength(day.truth.trips.length);
      expect(fills[v]).toHaveLength(day.truth.fills.length);
      day.truth.fills.forEach((truth, n) => {
        expect(relativeError(Number(fills[v]?.[n]?.fill_qty), truth.litres)).toBeLessThanOrEqual(0.03);
      });
    });
  });

  it.each(Object.keys(orders).slice(1))('agrees with in-order delivery when delivered %s', (name) => {
    const reference = delivered.get('in order') as Delivered;
    const other = delivered.get(name) as Delivered;
    expect(other.odometers).toEqual(reference.odometers);
    reference.trips.forEach((trips, v) => {
      expect(other.trips[v]).toHaveLength(trips.length);
      trips.forEach((trip, n) => {
        const found = other.trips[v]?.[n] as Record<string, string>;
        expect(seconds(found.start_time as string, trip.start_time as string)).toBeLessThanOrEqual(DRIVING_SAMPLE_S);
        expect(seconds(found.stop_time as string, trip.stop_time as string)).toBeLessThanOrEqual(DRIVING_SAMPLE_S);
        expect(relativeError(Number(found.distance), Number(trip.distance))).toBeLessThanOrEqual(DISTANCE_TOLERANCE);
      });
    });
    reference.fills.forEach((fills, v) => {
      expect(other.fills[v]).toHaveLength(fills.length);
      fills.forEach((fill, n) => {
        expect(relativeError(Number(other.fills[v]?.[n]?.fill_qty), Number(fill.fill_qty))).toBeLessThanOrEqual(FILL_TOLERANCE);
      });
    });
  });

  it('gives exactly the same figures in every order (re-detection walks the same history)', () => {
    const reference = figures(delivered.get('in order') as Delivered);
    for (const name of Object.keys(orders)) expect(figures(delivered.get(name) as Delivered)).toEqual(reference);
  });
});
