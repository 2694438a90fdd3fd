/**
 * A simulated fleet day delivered through the pipeline (DynamoDB Local) and read back through the API, compared
 * with the simulator's own truth: trips within one sample and 2 %, fills within 3 %, the odometer where the day
 * ended. What the arrival-order and device-fault truth tests share.
 */
import { expect } from 'vitest';
import { type BatchOutcome, processPositions } from '../../shared/pipeline/process-positions.ts';
import { DEFAULT_REPORTING, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { api } from './api.ts';
import type { Batch } from './arrival-orders.ts';
import { asFunction } from './as-function.ts';
import { givenUser, givenVehicle, type TestUser } from './builders.ts';

export const DISTANCE_TOLERANCE = 0.02;
export const FILL_TOLERANCE = 0.03;
const ODOMETER_TOLERANCE = 0.005;
const MAX_ATTEMPTS = 3;

/** A record as delivered: a simulated one, perhaps with a device fault's extra fields. */
export type DeliveredRecord = SimulatedRecord & { received_at?: string; valid?: boolean; satellites?: number };

export interface DeliveredVehicle {
  day: SimulatedDay;
  vehicleUid: number;
  trips: Array<Record<string, string>>;
  fills: Array<Record<string, string | number>>;
  odometer: number;
  live: Record<string, string>;
}

export interface Delivered {
  user: TestUser;
  vehicles: DeliveredVehicle[];
  outcomes: BatchOutcome[];
}

/**
 * Delivers the batches in turn to a new user's vehicles (one per day). Each record arrives when it is sent: its own
 * received_at (a clock glitch keeps the true one), else just after the newest point sent so far, as a live stream's.
 */
export async function deliverDays(
  days: readonly SimulatedDay[],
  batches: ReadonlyArray<Batch<DeliveredRecord>>,
  /** what the user has before the first point arrives (its zones) */
  prepare?: (user: TestUser) => Promise<unknown>,
): Promise<Delivered> {
  const user = await givenUser();
  await prepare?.(user);
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
  let clock = 0;
  const outcomes: BatchOutcome[] = [];
  for (const batch of batches) {
    clock = Math.max(clock, ...batch.records.map((record) => Date.parse(record.received_at ?? record.gps_datetime)));
    const receivedAt = new Date(clock + 1000).toISOString();
    let records = batch.records.map((record, n) => ({ id: String(n), data: JSON.stringify({ received_at: receivedAt, ...record }) }));
    // As Lambda does with a partial batch failure: the failed vehicles' records again (a write may lose a race on a slow machine).
    for (let attempt = 0; records.length > 0; attempt++) {
      const batchName = `${user.userUid}-${batch.name}-${attempt}`;
      const outcome = await asFunction('processPositions', () => processPositions(records, { batchName }));
      if (attempt === MAX_ATTEMPTS - 1) expect(outcome.failedIds).toEqual([]);
      outcomes.push(outcome);
      records = records.filter((record) => outcome.failedIds.includes(record.id));
    }
  }
  const date = (days[0] as SimulatedDay).records[0]?.gps_datetime.slice(0, 10);
  const range = { api_key: user.key, start_date: date, end_date: date };
  const [trips, listed, live] = await Promise.all([
    api.get('getTrips', range),
    api.get('getVehicles', { api_key: user.key }),
    api.get('getLiveData', { api_key: user.key }),
  ]);
  const byUid = (list: Array<Record<string, any>>, uid: number) => list.find((entry) => String(entry.vehicle_uid) === String(uid)) as any;
  return {
    user,
    outcomes,
    vehicles: await Promise.all(
      vehicles.map(async (vehicle, v) => ({
        day: days[v] as SimulatedDay,
        vehicleUid: vehicle.vehicleUid,
        trips: byUid(trips.body.vehicles, vehicle.vehicleUid).trips,
        fills: (await api.get('getFuelFillReport', { ...range, vehicle_uid: vehicle.vehicleUid })).body.fills,
        odometer: Number(byUid(listed.body.vehicles, vehicle.vehicleUid).curent_odo),
        live: byUid(live.body.vehicles, vehicle.vehicleUid),
      })),
    ),
  };
}

const instant = (text: string): number => Date.parse(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
const relativeError = (measured: number, truth: number): number => Math.abs(measured - truth) / truth;

/** The interval between the records around a true moment: no detector can place the moment closer than that. */
export function sampleIntervalAt(records: readonly SimulatedRecord[], at: string): number {
  const next = records.findIndex((record) => instant(record.gps_datetime) >= instant(at));
  const after = records[next] as SimulatedRecord;
  const before = after.gps_datetime === at ? after : (records[Math.max(0, next - 1)] as SimulatedRecord);
  return Math.max(DEFAULT_REPORTING.drivingIntervalS, (instant(after.gps_datetime) - instant(before.gps_datetime)) / 1000);
}

/** The vehicle's trips, fills, odometer and live record as the simulator says they are. */
export function expectTrueDay({ day, trips, fills, odometer, live }: DeliveredVehicle): void {
  const clean = day.records;
  expect(trips).toHaveLength(day.truth.trips.length);
  day.truth.trips.forEach((truth, n) => {
    const trip = trips[n] as Record<string, string>;
    expect(Math.abs(instant(trip.start_time as string) - instant(truth.start)) / 1000).toBeLessThanOrEqual(
      sampleIntervalAt(clean, truth.start),
    );
    expect(Math.abs(instant(trip.stop_time as string) - instant(truth.stop)) / 1000).toBeLessThanOrEqual(
      sampleIntervalAt(clean, truth.stop),
    );
    expect(relativeError(Number(trip.distance), truth.distanceKm)).toBeLessThanOrEqual(DISTANCE_TOLERANCE);
    expect(Number(trip.distance)).toBeGreaterThanOrEqual(0);
  });
  expect(fills).toHaveLength(day.truth.fills.length);
  day.truth.fills.forEach((truth, n) => {
    expect(relativeError(Number(fills[n]?.fill_qty), truth.litres)).toBeLessThanOrEqual(FILL_TOLERANCE);
  });
  // The device odometer counts in 0.1 km, and where it cannot be believed the positions' steps stand in for a few
  // readings; the GPS path is within the trips' tolerance of the day's distance.
  const dayKm = day.end.odometerKm - day.vehicle.odometerKm;
  const odometerTolerance = day.vehicle.reportsOdometer ? Math.max(0.1, ODOMETER_TOLERANCE * dayKm) : DISTANCE_TOLERANCE * dayKm;
  expect(Math.abs(odometer - day.end.odometerKm)).toBeLessThanOrEqual(odometerTolerance + 1e-6);
  // the live record is the last true point, never a glitch
  const last = day.records.at(-1) as SimulatedRecord;
  expect(live.gps_datetime).toBe(last.gps_datetime.slice(0, 19).replace('T', ' '));
}
