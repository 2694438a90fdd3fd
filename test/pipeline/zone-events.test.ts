/**
 * Zone and speeding events of the demo fleet day through the whole pipeline (DynamoDB Local, the API), against the
 * simulator's truth, under the arrival orders and device faults the trip truth tests use: every order and fault
 * leaves the same standing facts (types, zones, occurred_at within one sample) as clean in-order delivery.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FleetEvent } from '../../shared/domain/events/event.ts';
import { distanceKm } from '../../shared/domain/geo.ts';
import { newLocation, type UserLocation } from '../../shared/domain/user-location.ts';
import { addUserLocation } from '../../shared/store/user-locations.ts';
import {
  DEFAULT_REPORTING,
  demoFleetDay,
  demoZones,
  interleave,
  places,
  type SimulatedDay,
  type SimulatedRecord,
} from '../../simulator/index.ts';
import { api } from '../support/api.ts';
import { arrivalOrders, type Batch } from '../support/arrival-orders.ts';
import { anImei, type TestUser } from '../support/builders.ts';
import { deviceFaults, withRecords } from '../support/device-faults.ts';
import { standingEvents } from '../support/event-feed.ts';
import { type Delivered, deliverDays } from '../support/fleet-truth.ts';

const DATE = '2026-11-03';
const BATCH_SIZE = 400;
/** one sample while driving: no detector can place a crossing closer than that */
const SAMPLE_S = DEFAULT_REPORTING.drivingIntervalS;

const zoneParams = [
  ...places.map((place) => ({ description: place.name, latitude: place.lat, longitude: place.lng, radius: 0.4 })),
  ...demoZones(),
];
const [SCHOOL, YARD] = demoZones().map((zone) => ({ lat: zone.latitude, lng: zone.longitude, radiusKm: zone.radius }));

type Order = (records: readonly SimulatedRecord[]) => Array<Batch<SimulatedRecord>>;

/** The first record of the day within the zone (the vehicle's first crossing of it). */
function firstInside(day: SimulatedDay, zone: typeof YARD): number {
  const centre = zone as NonNullable<typeof YARD>;
  return day.records.findIndex((record) => distanceKm({ lat: record.latitude, lng: record.longitude }, centre) <= centre.radiusKm);
}

/**
 * Faults where they could make or move a zone event: a 0,0 fix in the no-go yard, a jump in the school zone, invalid
 * fixes, double reporting.
 */
function withFaults(day: SimulatedDay, v: number): SimulatedDay {
  let records = deviceFaults.zeroFixes(day.records, firstInside(day, YARD), 1);
  const school = firstInside({ ...day, records }, SCHOOL);
  if (school >= 0) records = deviceFaults.jumps(records, school + 1, 1, 3);
  records = deviceFaults.invalidFixes(records, Math.floor(records.length / 3), 2, 5);
  if (v === 1) records = deviceFaults.doubled(records);
  return withRecords(day, records);
}

interface Delivery {
  delivered: Delivered;
  zones: UserLocation[];
  events: FleetEvent[];
}

async function deliver(order: Order, faulty = false): Promise<Delivery> {
  const days = demoFleetDay(DATE, await Promise.all([anImei(), anImei(), anImei()]), 3);
  const sent = faulty ? days.map(withFaults) : days;
  const zones: UserLocation[] = [];
  const addZones = async (user: TestUser) => {
    for (const params of zoneParams) zones.push(await addUserLocation(user.userUid, newLocation(params)));
  };
  const delivered = await deliverDays(sent, order(interleave(sent)), addZones);
  const feed = await api.get('getEvents', { api_key: delivered.user.key, since: '2000-01-01 00:00:00', limit: 1000 });
  expect(feed.body.next_cursor).toBeTruthy();
  return { delivered, zones, events: feed.body.events };
}

const instant = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`);

/** Each vehicle's standing zone and speeding facts: per type and zone (by description), their occurred_at, in time order. */
function standingFacts({ delivered, events, zones }: Delivery): Array<Map<string, number[]>> {
  const standing = standingEvents(events);
  const described = new Map(zones.map((zone) => [zone.userLocationUid, zone.description]));
  return delivered.vehicles.map(({ vehicleUid }) => {
    const facts = new Map<string, number[]>();
    for (const event of standing) {
      if (event.data.vehicle_uid !== vehicleUid || !/^(geofence|no_go|speeding)\./.test(event.type)) continue;
      const key = `${event.type} ${described.get(event.data.user_location_uid as number) ?? 'vehicle limit'}`;
      facts.set(key, [...(facts.get(key) ?? []), instant(event.data.occurred_at)].sort());
    }
    return facts;
  });
}

const orders: Record<string, [Order, boolean]> = {
  shuffled: [(records) => arrivalOrders.shuffled(records, BATCH_SIZE, 20261126), false],
  'reversed per chunk': [(records) => arrivalOrders.reversedPerChunk(records, BATCH_SIZE), false],
  'in order with device faults': [(records) => arrivalOrders.inOrder(records, BATCH_SIZE), true],
  'with device faults and a 3-hour stretch delivered after the rest': [
    (records) => arrivalOrders.lateStretch(records, BATCH_SIZE, `${DATE}T05:00:00.000Z`, 3),
    true,
  ],
};

let inOrder: Delivery;
const others = new Map<string, Delivery>();

beforeAll(async () => {
  inOrder = await deliver((records) => arrivalOrders.inOrder(records, BATCH_SIZE));
  for (const [name, [order, faulty]] of Object.entries(orders)) others.set(name, await deliver(order, faulty));
}, 300_000);

describe('zone and speeding events of a demo fleet day', () => {
  it("enter and leave the places the simulator's trips go between", () => {
    for (const [v, { day }] of inOrder.delivered.vehicles.entries()) {
      const facts = (standingFacts(inOrder)[v] as Map<string, number[]>) ?? new Map();
      for (const trip of day.truth.trips) {
        const left = facts.get(`geofence.exited ${trip.from}`) ?? [];
        const arrived = facts.get(`geofence.entered ${trip.to}`) ?? [];
        // the 400 m around a place is driven within minutes of leaving and before stopping
        expect(left.filter((at) => at >= Date.parse(trip.start) && at <= Date.parse(trip.start) + 15 * 60_000)).toHaveLength(1);
        const stop = Date.parse(trip.stop) + SAMPLE_S * 1000;
        expect(arrived.filter((at) => at <= stop && at >= stop - 15 * 60_000)).toHaveLength(1);
      }
    }
  });

  it('cross the no-go yard once on every trip between Kempton Park and Sandton, and never otherwise', () => {
    for (const [v, { day }] of inOrder.delivered.vehicles.entries()) {
      const facts = standingFacts(inOrder)[v] as Map<string, number[]>;
      const yardTrips = day.truth.trips.filter((trip) => [trip.from, trip.to].sort().join() === 'Client Kempton Park,Client Sandton');
      expect(yardTrips.length).toBeGreaterThan(0);
      for (const type of ['no_go.entered', 'no_go.exited']) {
        const times = facts.get(`${type} No-go yard Marlboro`) ?? [];
        expect(times).toHaveLength(yardTrips.length);
        times.forEach((at, n) => {
          expect(at).toBeGreaterThanOrEqual(Date.parse((yardTrips[n] as (typeof yardTrips)[0]).start));
          expect(at).toBeLessThanOrEqual(Date.parse((yardTrips[n] as (typeof yardTrips)[0]).stop));
        });
      }
    }
  });

  it('speed only inside the 40 km/h school zone, each speeding ended within the visit that started it', () => {
    const facts = standingFacts(inOrder);
    const school = 'School zone Kyalami';
    const speedings = facts.flatMap((vehicle) => vehicle.get(`speeding.started ${school}`) ?? []);
    expect(speedings.length).toBeGreaterThan(0);
    for (const vehicle of facts) {
      const entered = vehicle.get(`geofence.entered ${school}`) ?? [];
      const exited = vehicle.get(`geofence.exited ${school}`) ?? [];
      const started = vehicle.get(`speeding.started ${school}`) ?? [];
      const ended = vehicle.get(`speeding.ended ${school}`) ?? [];
      expect(ended).toHaveLength(started.length);
      started.forEach((at, n) => {
        const visit = entered.findLastIndex((entry) => entry <= at);
        expect(visit).toBeGreaterThanOrEqual(0);
        expect(ended[n]).toBeLessThanOrEqual((exited[visit] as number) + SAMPLE_S * 1000);
      });
      expect([...vehicle.keys()].filter((key) => key.startsWith('speeding') && !key.endsWith(school))).toEqual([]);
    }
  });

  it.each(Object.keys(orders))('are the same standing facts, within one sample, when delivered %s', (name) => {
    const reference = standingFacts(inOrder);
    const delivered = standingFacts(others.get(name) as Delivery);
    delivered.forEach((facts, v) => {
      const expected = reference[v] as Map<string, number[]>;
      expect([...facts.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [key, times] of facts) {
        expect(times, key).toHaveLength((expected.get(key) as number[]).length);
        times.forEach((at, n) => {
          expect(Math.abs(at - ((expected.get(key) as number[])[n] as number)) / 1000, key).toBeLessThanOrEqual(SAMPLE_S);
        });
      }
    });
  });

  it('voids what late points retract and marks late what they reveal, and carries the zone on its events', () => {
    const late = others.get('with device faults and a 3-hour stretch delivered after the rest') as Delivery;
    expect(late.events.some((event) => event.type.startsWith('geofence') && event.data.late === 1)).toBe(true);
    const entered = inOrder.events.find((event) => event.type === 'no_go.entered');
    const yard = inOrder.zones.find((zone) => zone.noGo) as UserLocation;
    expect(entered?.data).toMatchObject({
      user_location_uid: yard.userLocationUid,
      description: yard.description,
      speed: 0,
      only_push: 0,
      interpolated: expect.any(Number),
      latitude: expect.any(Number),
    });
  });
});
