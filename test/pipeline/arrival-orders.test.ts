/**
 * The simulator's ground truth through the whole pipeline (DynamoDB Local, the API) under the orders positions
 * really arrive in: every order gives each vehicle its true trips (within one sample, distance within 2 %), fills
 * (within 3 %), odometer and live record, and every order the same figures as in-order delivery.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoFleetDay, interleave, type SimulatedRecord } from '../../simulator/index.ts';
import { arrivalOrders, type Batch } from '../support/arrival-orders.ts';
import { anImei } from '../support/builders.ts';
import { type Delivered, deliverDays, expectTrueDay } from '../support/fleet-truth.ts';

const DATE = '2026-11-01';
const BATCH_SIZE = 400;

type Order = (records: readonly SimulatedRecord[]) => Array<Batch<SimulatedRecord>>;

const orders: Record<string, Order> = {
  'in order': (records) => arrivalOrders.inOrder(records, BATCH_SIZE),
  'reversed per chunk': (records) => arrivalOrders.reversedPerChunk(records, BATCH_SIZE),
  'with a 2-hour stretch delivered after the rest': (records) => arrivalOrders.lateStretch(records, BATCH_SIZE, `${DATE}T07:00:00.000Z`),
  shuffled: (records) => arrivalOrders.shuffled(records, BATCH_SIZE, 20261123),
  replayed: (records) => arrivalOrders.replayed(records, BATCH_SIZE),
};

/** One demo fleet day (fresh IMEIs) delivered in the given order to a new user's vehicles. */
async function deliver(order: Order): Promise<Delivered> {
  const days = demoFleetDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 1);
  return deliverDays(days, order(interleave(days)));
}

/** What the API answers of a vehicle, less the identities each delivery allocates anew. */
const figures = ({ vehicles }: Delivered) =>
  vehicles.map(({ trips, fills, odometer, live }) => ({
    trips: trips.map(({ trip_uid: _uid, ...trip }) => trip),
    fills: fills.map(({ event_uid: _uid, trip_uid: _trip, ...fill }) => fill),
    odometer,
    live: { gps_datetime: live.gps_datetime, latitude: live.latitude, longitude: live.longitude },
  }));

const delivered = new Map<string, Delivered>();

beforeAll(async () => {
  for (const [name, order] of Object.entries(orders)) delivered.set(name, await deliver(order));
}, 240_000);

describe('a demo fleet day delivered in any order', () => {
  it.each(Object.keys(orders))(
    "gives every vehicle the simulator's true trips, fills, odometer and live record when delivered %s",
    (name) => {
      for (const vehicle of (delivered.get(name) as Delivered).vehicles) expectTrueDay(vehicle);
    },
  );

  it('gives exactly the same figures in every order (re-detection walks the same history)', () => {
    const reference = figures(delivered.get('in order') as Delivered);
    for (const name of Object.keys(orders)) expect(figures(delivered.get(name) as Delivered)).toEqual(reference);
  });
});
