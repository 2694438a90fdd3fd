/**
 * The demo fleet day with device faults injected (issue 21), delivered in order and late through the whole pipeline
 * (DynamoDB Local, the API): every vehicle's trips, fills, odometer and live record are still the simulator's truth.
 * Each vehicle carries several faults at different places, so each delivery tries every class on both vehicle kinds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { distanceKm } from '../../shared/domain/geo.ts';
import { detect, initialTrackState } from '../../shared/domain/tracking/detector.ts';
import type { Fault } from '../../shared/domain/tracking/faults.ts';
import { detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { faultReport } from '../../shared/pipeline/fault-report.ts';
import { demoFleetDay, interleave, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { api } from '../support/api.ts';
import { arrivalOrders } from '../support/arrival-orders.ts';
import { anImei } from '../support/builders.ts';
import { deviceFaults, midTrip, parkedAfter, withRecords } from '../support/device-faults.ts';
import { type Delivered, deliverDays, expectTrueDay } from '../support/fleet-truth.ts';
import { positionOf } from '../support/position-builders.ts';

const DATE = '2026-11-02';
/** the stuck clock's records: those away from the fix whose time they carry are a same-second fault, the others the fix again */
const STUCK = 10;
const SAME_PLACE_M = 10;
const BATCH_SIZE = 400;
const YEAR_MS = 365 * 86_400_000;
const ROLLOVER_MS = 1024 * 7 * 86_400_000;

type Inject = (day: SimulatedDay) => SimulatedRecord[];
const faults =
  (...steps: Array<(day: SimulatedDay, records: SimulatedRecord[]) => SimulatedRecord[]>): Inject =>
  (day) =>
    steps.reduce((records, step) => step({ ...day, records }, records), day.records);

/** In order: the truck, the van (ignition, no odometer), the bakkie (no ignition, no odometer). */
const inOrderFaults: [Inject, Inject, Inject] = [
  faults(
    (day, r) => deviceFaults.clockGlitch(r, midTrip(day, 1), 5 * YEAR_MS),
    (day, r) => deviceFaults.fuelReadings(r, parkedAfter(day, 0), 4, 0),
    (day, r) => deviceFaults.odometerRestart(r, midTrip(day, 3)),
  ),
  faults(
    (day, r) => deviceFaults.zeroFixes(r, midTrip(day, 0), 3),
    (day, r) => deviceFaults.jumps(r, midTrip(day, 1), 1, 50),
    (day, r) => deviceFaults.stuckClock(r, midTrip(day, 2), STUCK),
    (day, r) => deviceFaults.clockGlitch(r, parkedAfter(day, 2), -ROLLOVER_MS),
  ),
  faults(
    (day, r) => deviceFaults.invalidFixes(r, midTrip(day, 0), 2, 30),
    (day, r) => deviceFaults.fuelReadings(r, parkedAfter(day, 1, 20), 3, 12),
    (day, r) => deviceFaults.clockGlitch(r, midTrip(day, 2), 3 * 3_600_000),
  ),
];

/** Late: other faults, other places and sizes; a stretch of the day delivered after the rest, every point of the van twice. */
const lateFaults: [Inject, Inject, Inject] = [
  faults(
    (day, r) => deviceFaults.clockGlitch(r, midTrip(day, 4), -ROLLOVER_MS),
    (day, r) => deviceFaults.zeroFixes(r, midTrip(day, 3), 2),
    (day, r) => deviceFaults.jumps(r, midTrip(day, 2), 2, 20),
    (day, r) => deviceFaults.fuelReadings(r, parkedAfter(day, 5), 2, day.vehicle.fuelCapacity * 2),
    (day, r) => deviceFaults.odometerSpike(r, midTrip(day, 1), 2, 3000),
  ),
  faults(
    (day, r) => deviceFaults.clockGlitch(r, midTrip(day, 0), 86_400_000),
    (day, r) => deviceFaults.fuelReadings(r, parkedAfter(day, 0), 4, 0),
    (day, r) => deviceFaults.invalidFixes(r, midTrip(day, 3), 3, 5),
    (_day, r) => deviceFaults.doubled(r),
  ),
  faults(
    (day, r) => deviceFaults.jumps(r, midTrip(day, 0), 1, 80),
    (day, r) => deviceFaults.zeroFixes(r, midTrip(day, 1), 4),
    (day, r) => deviceFaults.clockGlitch(r, midTrip(day, 2), 40 * YEAR_MS),
  ),
];

async function deliverWith(injected: readonly Inject[], late: boolean): Promise<Delivered> {
  const days = demoFleetDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 2);
  const faulty = days.map((day, v) => withRecords(day, (injected[v] as Inject)(day)));
  const stream = interleave(faulty);
  const batches = late
    ? arrivalOrders.lateStretch(stream, BATCH_SIZE, `${DATE}T07:00:00.000Z`, 3)
    : arrivalOrders.inOrder(stream, BATCH_SIZE);
  // the truth is the clean day's: what each vehicle really did
  const delivered = await deliverDays(faulty, batches);
  delivered.vehicles.forEach((vehicle, v) => {
    vehicle.day = days[v] as SimulatedDay;
  });
  return delivered;
}

/** Each class as the faults report (npm run admin -- faults) finds it over the day, summed over the fleet. */
async function reported(delivered: Delivered): Promise<Partial<Record<Fault, number>>> {
  const reports = await Promise.all(
    delivered.vehicles.map(({ vehicleUid }) => faultReport(vehicleUid, `${DATE}T00:00:00.000Z`, `${DATE}T23:59:59.999Z`)),
  );
  const totals: Partial<Record<Fault, number>> = {};
  for (const report of reports) {
    for (const [fault, { count }] of Object.entries(report ?? {})) totals[fault as Fault] = (totals[fault as Fault] ?? 0) + count;
  }
  return totals;
}

/** The sensor spikes the simulator puts into a clean day are dropouts too: the clean day's own count, from the detector. */
function cleanDropouts(delivered: Delivered): number {
  return delivered.vehicles.reduce((sum, { day }) => {
    const profile = {
      odometerAtStartKm: day.vehicle.odometerKm,
      startHours: null,
      fuelCapacity: day.vehicle.fuelCapacity,
      fuelFactor: day.vehicle.fuelFactor,
    };
    const positions = day.records.map((record) => positionOf(record));
    const settings = detectionSettings(day.vehicle.ignitionWired ? {} : { useIgnition: false });
    const { ignored } = detect(initialTrackState(profile), positions, profile, settings);
    return sum + ignored.filter(({ fault }) => fault === 'fuel dropout').length;
  }, 0);
}

/** The van's stuck-clock records away from the fix whose time they carry (while driving, all of them). */
function stuckAway(delivered: Delivered): number {
  const { day } = delivered.vehicles[1] as Delivered['vehicles'][number];
  const at = midTrip(day, 2);
  const fix = day.records[at] as SimulatedRecord;
  const stuck = day.records.slice(at + 1, at + 1 + STUCK);
  return stuck.filter((record) => distanceKm(latLng(fix), latLng(record)) * 1000 >= SAME_PLACE_M).length;
}

const latLng = (record: SimulatedRecord) => ({ lat: record.latitude, lng: record.longitude });

/** What the batches counted in the metrics, per class. */
const metered = (delivered: Delivered) =>
  new Set(delivered.outcomes.flatMap((outcome) => Object.entries(outcome.faults).flatMap(([fault, count]) => (count ? [fault] : []))));

let inOrder: Delivered;
let late: Delivered;

beforeAll(async () => {
  inOrder = await deliverWith(inOrderFaults, false);
  late = await deliverWith(lateFaults, true);
}, 240_000);

describe('a demo fleet day with device faults', () => {
  it.each([
    ['in order', () => inOrder],
    ['late', () => late],
  ])('gives every vehicle its true trips, fills, odometer and live record when delivered %s', (_order, delivered) => {
    for (const vehicle of delivered().vehicles) expectTrueDay(vehicle);
  });

  it('reports every point set aside and ignored, and every reading ignored, per class', async () => {
    expect(await reported(inOrder)).toEqual({
      'in the future': 2,
      'too late': 1,
      'same second': stuckAway(inOrder),
      'zero fix': 3,
      'invalid fix': 2,
      'speed jump': 1,
      'fuel dropout': cleanDropouts(inOrder) + 4 + 3,
      'odometer reset': 1,
    });
    expect(await reported(late)).toEqual({
      'in the future': 3,
      'too late': 1,
      'zero fix': 2 + 4,
      'invalid fix': 3,
      'speed jump': 2 + 1,
      'fuel dropout': cleanDropouts(late) + 4 + 2,
      'odometer jump': 1,
      'odometer reset': 1,
    });
  });

  it('counts each class in the metrics of the batches that brought it', () => {
    expect([...metered(inOrder)].sort()).toEqual([
      'fuel dropout',
      'in the future',
      'invalid fix',
      'odometer reset',
      'same second',
      'speed jump',
      'too late',
      'zero fix',
    ]);
    // late, no clock sticks
    const lateClasses = [...metered(inOrder)].filter((fault) => fault !== 'same second');
    expect(metered(late)).toEqual(new Set([...lateClasses, 'odometer jump']));
  });

  it('keeps the 0,0 fixes in the history and getPositions says why they were ignored', async () => {
    const van = inOrder.vehicles[1] as Delivered['vehicles'][number];
    const trip = van.day.truth.trips[0] as { start: string; stop: string };
    const answer = await api.get('getPositions', {
      api_key: inOrder.user.key,
      vehicle_uid: van.vehicleUid,
      start_datetime: trip.start.slice(0, 19).replace('T', ' '),
      end_datetime: trip.stop.slice(0, 19).replace('T', ' '),
    });
    const ignored = answer.body.positions.filter((position: { ignored?: string }) => position.ignored);
    expect(ignored.map((position: { latitude: number; ignored: string }) => [position.latitude, position.ignored])).toEqual([
      [0, 'zero fix'],
      [0, 'zero fix'],
      [0, 'zero fix'],
    ]);
  });
});
