/**
 * fuel.dropped through the whole pipeline (DynamoDB Local, getEvents): the simulator's thefts are found once each,
 * at the truth within one sample, whatever order the points arrive in and whichever fuel faults the sensor adds;
 * a fall later points show to be a dropout is voided; reprocess re-derives drops after a settings change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { demoTheftDay, interleave, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { admin } from '../support/admin.ts';
import { api } from '../support/api.ts';
import { arrivalOrders, type Batch } from '../support/arrival-orders.ts';
import { anImei, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { deviceFaults, parkedAfter, withRecords } from '../support/device-faults.ts';
import { standingEvents } from '../support/event-feed.ts';
import { type Delivered, deliverDays, sampleIntervalAt } from '../support/fleet-truth.ts';
import { DEPOT, ingest, parked } from '../support/position-builders.ts';

const DATE = '2026-11-03';
const BATCH_SIZE = 400;
const SINCE = { since: '2000-01-01 00:00:00', limit: 1000 };
/** the longest interval between the simulator's records (parked): no order can place a fact closer than that */
const SAMPLE_S = 120;

const feedOf = async (user: TestUser): Promise<FleetEvent[]> => (await api.get('getEvents', { api_key: user.key, ...SINCE })).body.events;

const instant = (occurredAt: string): number => Date.parse(`${occurredAt.replace(' ', 'T')}Z`);

/** Dropouts (0), a low run that comes back, readings beyond the tank: near each theft and elsewhere. */
function withFuelFaults(day: SimulatedDay): SimulatedDay {
  let records: SimulatedRecord[] = day.records;
  for (const theft of day.truth.drops) {
    const before = records.findIndex((record) => record.gps_datetime >= theft.at) - 3;
    records = deviceFaults.fuelReadings(records, before, 2, 0);
  }
  records = deviceFaults.fuelReadings(records, parkedAfter(day, 0), 3, 1);
  records = deviceFaults.fuelReadings(records, parkedAfter(day, 1, 20), 2, day.vehicle.fuelCapacity * 2);
  return withRecords(day, records);
}

type Order = (records: readonly SimulatedRecord[]) => Array<Batch<SimulatedRecord>>;

const deliveries: Record<string, { order: Order; faults?: (day: SimulatedDay) => SimulatedDay }> = {
  'in order': { order: (records) => arrivalOrders.inOrder(records, BATCH_SIZE) },
  'reversed per chunk': { order: (records) => arrivalOrders.reversedPerChunk(records, BATCH_SIZE) },
  'with the night delivered after the rest': {
    order: (records) => arrivalOrders.lateStretch(records, BATCH_SIZE, `${DATE}T01:00:00.000Z`, 2),
  },
  'with fuel sensor faults, shuffled': {
    order: (records) => arrivalOrders.shuffled(records, BATCH_SIZE, 7),
    faults: withFuelFaults,
  },
};

const delivered = new Map<string, { run: Delivered; events: FleetEvent[] }>();

beforeAll(async () => {
  for (const [name, { order, faults }] of Object.entries(deliveries)) {
    const days = demoTheftDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 1).map((day) => (faults ? faults(day) : day));
    const run = await deliverDays(days, order(interleave(days)));
    delivered.set(name, { run, events: await feedOf(run.user) });
  }
}, 900_000);

describe('fuel.dropped for the simulated thefts', () => {
  it.each(Object.keys(deliveries))('finds each theft once, at its start within one sample, when delivered %s', (name) => {
    const { run, events } = delivered.get(name) as { run: Delivered; events: FleetEvent[] };
    for (const { day, vehicleUid } of run.vehicles) {
      const drops = standingEvents(events)
        .filter((event) => event.type === 'fuel.dropped' && event.data.vehicle_uid === vehicleUid)
        .sort((a, b) => a.data.occurred_at.localeCompare(b.data.occurred_at));
      expect(drops, `vehicle ${vehicleUid}`).toHaveLength(day.truth.drops.length);
      day.truth.drops.forEach((truth, n) => {
        const data = (drops[n] as FleetEvent).data;
        expect(Math.abs(instant(data.occurred_at) - Date.parse(truth.at)) / 1000).toBeLessThanOrEqual(
          sampleIntervalAt(day.records, truth.at),
        );
        expect(Math.abs(Number(data.drop_qty) - truth.litres)).toBeLessThanOrEqual(Math.max(1, 0.08 * truth.litres));
        expect(Math.abs(Number(data.fuel_level_before) - truth.levelBefore)).toBeLessThanOrEqual(2);
        expect(Math.abs(Number(data.fuel_level_after) - truth.levelAfter)).toBeLessThanOrEqual(2);
        expect(data.moving).toBe(0);
      });
    }
  });

  it('holds the same standing events of every type, within one sample, in every order and with the faults', () => {
    const facts = ({ run, events }: { run: Delivered; events: FleetEvent[] }) =>
      standingEvents(events)
        .map((event) => ({
          fact: `${run.vehicles.findIndex(({ vehicleUid }) => vehicleUid === event.data.vehicle_uid)} ${event.type}`,
          at: instant(event.data.occurred_at),
        }))
        .sort((a, b) => a.fact.localeCompare(b.fact) || a.at - b.at);
    const reference = facts(delivered.get('in order') as { run: Delivered; events: FleetEvent[] });
    expect(reference.filter(({ fact }) => fact.endsWith('fuel.dropped'))).toHaveLength(4);
    for (const name of Object.keys(deliveries)) {
      const found = facts(delivered.get(name) as { run: Delivered; events: FleetEvent[] });
      expect(
        found.map(({ fact }) => fact),
        name,
      ).toEqual(reference.map(({ fact }) => fact));
      found.forEach(({ fact, at }, n) => {
        expect(Math.abs(at - (reference[n] as { at: number }).at) / 1000, `${name}: ${fact}`).toBeLessThanOrEqual(SAMPLE_S);
      });
    }
  });
});

/** Parked at the depot: 60 L a minute apart for an hour, then a sensor reading 40 L every other minute. */
function flakyNight(imei: string) {
  const hour = parked(imei, `${DATE}T00:00:00.000Z`, 61, DEPOT, { fuel_raw: 60, ignition: false, speed: 0 });
  const low = parked(imei, `${DATE}T01:02:00.000Z`, 40, DEPOT, { fuel_raw: 40, ignition: false, speed: 0 }, 120);
  const good = parked(imei, `${DATE}T01:01:00.000Z`, 50, DEPOT, { fuel_raw: 60, ignition: false, speed: 0 }, 120);
  return { hour, low, good };
}

describe('fuel.dropped under late data and settings', () => {
  it('voids a drop once late readings show the fall was a dropout', async () => {
    // Prepare: the readings at 40 L arrive, the good ones between them were buffered
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelCapacity: 120 });
    const { hour, low, good } = flakyNight(vehicle.imei);
    await ingest([...hour, ...low], undefined, new Date(`${DATE}T01:45:00.000Z`));
    const [drop] = (await feedOf(user)).filter((event) => event.type === 'fuel.dropped');
    // Act
    await ingest(good, undefined, new Date(`${DATE}T01:50:00.000Z`));
    // Assess
    expect(drop?.data).toMatchObject({
      occurred_at: `${DATE} 01:00:00`,
      drop_qty: 20,
      fuel_level_before: 60,
      fuel_level_after: 40,
      moving: 0,
    });
    const events = await feedOf(user);
    expect(events.filter((event) => event.type === 'event.voided').map((event) => event.data)).toEqual([
      expect.objectContaining({ voided_event_id: drop?.event_id, voided_type: 'fuel.dropped', occurred_at: `${DATE} 01:00:00` }),
    ]);
    expect(standingEvents(events).filter((event) => event.type === 'fuel.dropped')).toEqual([]);
  });

  it('emits a drop once per replay; reprocess voids it above fuelDropMinL, finds it again below under a new id', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { fuelCapacity: 120 });
    const { hour } = flakyNight(vehicle.imei);
    const theft = parked(vehicle.imei, `${DATE}T01:01:00.000Z`, 30, DEPOT, { fuel_raw: 45, ignition: false, speed: 0 });
    await ingest([...hour, ...theft], 'drop-replayed');
    await ingest([...hour, ...theft], 'drop-replayed');
    const once = (await feedOf(user)).filter((event) => event.type === 'fuel.dropped');
    const uid = String(vehicle.vehicleUid);
    // Act
    const again = await admin('reprocess', '--vehicle', uid, '--from', DATE);
    await admin('vehicle', 'settings', '--vehicle', uid, '--set', 'fuelDropMinL=20');
    await admin('reprocess', '--vehicle', uid, '--from', DATE);
    const raised = await feedOf(user);
    await admin('vehicle', 'settings', '--vehicle', uid, '--reset', 'fuelDropMinL');
    await admin('reprocess', '--vehicle', uid, '--from', DATE);
    // Assess
    expect(once.map((event) => event.data)).toEqual([expect.objectContaining({ occurred_at: `${DATE} 01:00:00`, drop_qty: 15 })]);
    expect(again.code).toBe(0);
    expect(raised.filter((event) => event.type === 'fuel.dropped')).toHaveLength(1);
    expect(raised.at(-1)?.data).toMatchObject({ voided_event_id: once[0]?.event_id, voided_type: 'fuel.dropped' });
    expect(standingEvents(raised).filter((event) => event.type === 'fuel.dropped')).toEqual([]);
    const refound = standingEvents(await feedOf(user)).filter((event) => event.type === 'fuel.dropped');
    expect(refound.map((event) => event.data)).toEqual([expect.objectContaining({ occurred_at: `${DATE} 01:00:00`, drop_qty: 15 })]);
    expect(refound[0]?.event_id).not.toBe(once[0]?.event_id);
  }, 240_000);
});
