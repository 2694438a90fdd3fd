/** The demo fleet of `npm start` and the benchmarks' synthetic fleets, simulated day by day. */
import { distanceKm, type LatLng, roundTo } from '../shared/domain/geo.ts';
import { type PlanEvent, type Reporting, type SimulatedDay, type SimulatedRecord, type SimVehicle, simulateDay } from './day.ts';
import { type PlaceName, placeNamed, places } from './places.ts';
import { pick, prng, uniform } from './random.ts';
import { along, road } from './roads.ts';

const demoVehicles: Omit<SimVehicle, 'imei'>[] = [
  {
    home: 'Depot Midrand',
    fuelCapacity: 200,
    fuelFactor: 1,
    fuelLitres: 62,
    odometerKm: 120_345,
    litresPer100Km: 28,
    idleLitresPerHour: 2.5,
    ignitionWired: true,
    reportsOdometer: true,
    driverTagId: '01A2B3C4',
    deviceType: 'FMB920',
    config: '12',
  },
  {
    home: 'Client Kempton Park',
    fuelCapacity: 70,
    fuelFactor: 1.02,
    fuelLitres: 38,
    odometerKm: 64_210,
    litresPer100Km: 11,
    idleLitresPerHour: 0.9,
    ignitionWired: true,
    reportsOdometer: false,
    driverTagId: '01D5E6F7',
    deviceType: 'FMB920',
    config: '12',
  },
  {
    home: 'Client Sandton',
    fuelCapacity: 80,
    fuelFactor: 1,
    fuelLitres: 30,
    odometerKm: 31_877,
    litresPer100Km: 9.5,
    idleLitresPerHour: 0.8,
    ignitionWired: false,
    reportsOdometer: false,
    driverTagId: null,
    deviceType: 'FMC130',
    config: '7',
  },
];

const demoPlans: PlanEvent[][] = [
  [
    { kind: 'fill', at: '04:00', litres: 125 },
    { kind: 'drive', at: '04:30', to: 'Client Kempton Park' },
    { kind: 'drive', at: '05:45', to: 'Client Sandton' },
    { kind: 'drive', at: '07:15', to: 'Depot Midrand' },
    { kind: 'drive', at: '08:30', to: 'Client Kempton Park' },
    { kind: 'drive', at: '09:45', to: 'Client Sandton' },
    { kind: 'drive', at: '11:15', to: 'Fuel stop Woodmead' },
    { kind: 'fill', at: '11:50', litres: 60 },
    { kind: 'drive', at: '12:20', to: 'Depot Midrand' },
    { kind: 'idle', at: '13:30', minutes: 15 },
  ],
  [
    { kind: 'drive', at: '05:15', to: 'Client Sandton' },
    { kind: 'silence', at: '06:00', minutes: 75 },
    { kind: 'drive', at: '07:30', to: 'Depot Midrand' },
    { kind: 'fill', at: '08:50', litres: 40 },
    { kind: 'drive', at: '09:30', to: 'Client Sandton' },
    { kind: 'drive', at: '11:00', to: 'Client Kempton Park' },
  ],
  [
    { kind: 'drive', at: '05:30', to: 'Client Kempton Park' },
    { kind: 'drive', at: '07:00', to: 'Fuel stop Woodmead' },
    { kind: 'fill', at: '07:45', litres: 45 },
    // leaves a few minutes after the pump stops, as drivers do at a fuel stop
    { kind: 'drive', at: '07:52', to: 'Depot Midrand' },
    { kind: 'idle', at: '09:00', minutes: 10 },
    { kind: 'drive', at: '10:00', to: 'Client Sandton' },
  ],
];

/**
 * The three demo vehicles of `npm start` (imeis in the seed's order), each parked overnight at its own
 * base so the live map shows all three: a truck at the depot whose device reads the odometer, filling at
 * the depot and at the fuel stop; a van stationed at the Kempton Park client whose device goes silent for
 * 75 minutes; a bakkie at the Sandton client without ignition wiring that fills and leaves soon after.
 */
export function demoFleetDay(date: string, imeis: readonly string[], seed: number, reporting?: Partial<Reporting>): SimulatedDay[] {
  return demoVehicles.slice(0, imeis.length).map((details, index) => {
    const odometerKm = roundTo(details.odometerKm + demoDayKm(index) * daysBetween(DEMO_ODOMETER_DATE, date), 3);
    const vehicle = { ...details, imei: imeis[index] as string, odometerKm };
    return simulateDay({ vehicle, date, plan: demoPlans[index] as PlanEvent[], seed: seed * 31 + index, reporting });
  });
}

/** How a device reports: every `everyS` seconds while the engine runs, with its GPS speed or without (parked as trackers do). */
export const reportingAt = (everyS: number, withSpeed: boolean): Partial<Reporting> => ({ drivingIntervalS: everyS, withSpeed });

/**
 * The demo fleet's day with fuel stolen: the truck siphoned at the depot before dawn and again after its last
 * drive, the van at its client before dawn, the bakkie at the depot after its drives. The truth lists each theft.
 */
export function demoTheftDay(date: string, imeis: readonly string[], seed: number): SimulatedDay[] {
  const thefts: Array<{ before: PlanEvent[]; after: PlanEvent[] }> = [
    { before: [{ kind: 'siphon', at: '01:30', litres: 40 }], after: [{ kind: 'siphon', at: '15:00', litres: 30 }] },
    { before: [{ kind: 'siphon', at: '02:00', litres: 12 }], after: [] },
    { before: [], after: [{ kind: 'siphon', at: '13:00', litres: 15 }] },
  ];
  return demoVehicles.slice(0, imeis.length).map((details, index) => {
    const theft = thefts[index] as { before: PlanEvent[]; after: PlanEvent[] };
    const plan = [...theft.before, ...(demoPlans[index] as PlanEvent[]), ...theft.after];
    return simulateDay({ vehicle: { ...details, imei: imeis[index] as string }, date, plan, seed: seed * 31 + index });
  });
}

/** The demo vehicles' odometers read their `odometerKm` at the start of this day. */
const DEMO_ODOMETER_DATE = '2026-01-15';

const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/**
 * A demo vehicle drives the same roads every day, so its day's distance does not depend on the seed: each day's
 * odometer starts where the day before ended, whichever days are simulated.
 */
const demoDayKms = new Map<number, number>();
function demoDayKm(index: number): number {
  let km = demoDayKms.get(index);
  if (km === undefined) {
    const details = demoVehicles[index] as Omit<SimVehicle, 'imei'>;
    const day = simulateDay({
      vehicle: { ...details, imei: '0' },
      date: DEMO_ODOMETER_DATE,
      plan: demoPlans[index] as PlanEvent[],
      seed: 1,
    });
    km = day.end.odometerKm - details.odometerKm;
    demoDayKms.set(index, km);
  }
  return km;
}

/** The records up to `nowMs`: a simulated day never reports positions from the future. */
export function recordsUntil(records: readonly SimulatedRecord[], nowMs: number): SimulatedRecord[] {
  return records.filter((record) => Date.parse(record.gps_datetime) <= nowMs);
}

/**
 * `count` vehicles on one day, reporting every `intervalS` seconds driving or parked (the ingest benchmark's load):
 * each fills up at home before its round of 3 to 6 drives; one in ten has no ignition wiring, one in five reads the odometer.
 */
export function fleetDay(count: number, date: string, intervalS: number, seed = 1): SimulatedDay[] {
  const reporting = { drivingIntervalS: intervalS, parkedIntervalS: [intervalS, intervalS] as const };
  return Array.from({ length: count }, (_, index) => {
    const random = prng(seed * 7919 + index);
    const template = demoVehicles[index % demoVehicles.length] as Omit<SimVehicle, 'imei'>;
    const home = pick(random, places).name;
    const vehicle: SimVehicle = {
      ...template,
      imei: `35630704${String(index).padStart(7, '0')}`,
      home,
      fuelLitres: Math.round(template.fuelCapacity * uniform(random, 0.25, 0.5)),
      odometerKm: Math.round(uniform(random, 5_000, 300_000)),
      ignitionWired: index % 10 !== 9,
      reportsOdometer: index % 5 === 0,
      driverTagId: `01${String(index).padStart(6, '0')}`,
    };
    const plan: PlanEvent[] = [{ kind: 'fill', at: '03:30', litres: Math.round(vehicle.fuelCapacity * 0.95 - vehicle.fuelLitres) }];
    let minute = Math.round(uniform(random, 240, 360));
    let at: PlaceName = home;
    for (let leg = Math.floor(uniform(random, 3, 7)); leg > 0; leg--) {
      const to = pick(
        random,
        places.filter((place) => place.name !== at),
      ).name;
      plan.push({ kind: 'drive', at: hhmm(minute), to });
      minute += Math.round(distanceKm(placeNamed(at), placeNamed(to)) * 3 + uniform(random, 20, 90));
      at = to;
    }
    return simulateDay({ vehicle, date, plan, seed: seed * 104_729 + index, reporting });
  });
}

/** Every day's records in one stream, in GPS time order (as a fleet's devices would send them). */
export function interleave(days: readonly SimulatedDay[]): SimulatedRecord[] {
  return days.flatMap((day) => day.records).sort((a, b) => a.gps_datetime.localeCompare(b.gps_datetime));
}

const hhmm = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** A zone the demo seed saves beside its places: on a road the demo vehicles drive, so they pass through it. */
export interface DemoZone {
  description: string;
  latitude: number;
  longitude: number;
  /** km */
  radius: number;
  speed: number;
  no_go: 0 | 1;
}

/** The point `share` of the way along the road between two places. */
function alongRoad(from: PlaceName, to: PlaceName, share: number): LatLng {
  const route = road(placeNamed(from), placeNamed(to));
  const targetM = route.lengthM * share;
  const segment = Math.max(0, route.cumM.findIndex((m) => m >= targetM) - 1);
  const point = along(route, segment, targetM);
  return { lat: roundTo(point.lat, 5), lng: roundTo(point.lng, 5) };
}

/**
 * The demo's speed-limited and no-go zones: a 40 km/h zone three quarters of the way from Sandton to the depot (the truck and the
 * van drive it at road speed), and a no-go yard halfway between Kempton Park and Sandton (every vehicle crosses it).
 */
export function demoZones(): DemoZone[] {
  const school = alongRoad('Client Sandton', 'Depot Midrand', 0.75);
  const yard = alongRoad('Client Kempton Park', 'Client Sandton', 0.5);
  return [
    { description: 'School zone Kyalami', latitude: school.lat, longitude: school.lng, radius: 1, speed: 40, no_go: 0 },
    { description: 'No-go yard Marlboro', latitude: yard.lat, longitude: yard.lng, radius: 0.3, speed: 0, no_go: 1 },
  ];
}

/**
 * A fleet with ignition wiring doing short rounds from one spot for `days` days from `startDate`: each vehicle leaves
 * its home bay, drives 1 to 4 km out and back to exactly the same bay, and stands there with the ignition off for
 * `offMinutes` before the next round, from early morning to evening. Its devices hold their fix while the vehicle
 * stands (static navigation) and send `decimals` decimals, so every round starts and ends at exactly the coordinates of
 * the rounds before: what a fault rule on exact coordinates must never take for a resent fix. Days chain their odometer
 * and fuel, and each day's truth lists its rounds.
 */
export function depotRoundsFleet(
  count: number,
  startDate: string,
  days: number,
  options: { seed?: number; offMinutes?: number; decimals?: number; reporting?: Partial<Reporting> } = {},
): SimulatedDay[][] {
  const { seed = 1, offMinutes = 16, decimals = 6 } = options;
  const reporting: Partial<Reporting> = { staticNavigation: true, decimals, ...options.reporting };
  return Array.from({ length: count }, (_, index) => {
    const random = prng(seed * 6151 + index);
    const home = (places[index % places.length] as (typeof places)[number]).name;
    let vehicle: SimVehicle = {
      ...(demoVehicles[1] as Omit<SimVehicle, 'imei'>),
      imei: `35630705${String(index).padStart(7, '0')}`,
      home,
      odometerKm: Math.round(uniform(random, 5_000, 300_000)),
      ignitionWired: true,
      reportsOdometer: false,
    };
    return Array.from({ length: days }, (_, n) => {
      const date = new Date(Date.parse(`${startDate}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      // topped up before dawn when low, as a depot vehicle is
      const plan: PlanEvent[] = vehicle.fuelLitres < 30 ? [{ kind: 'fill', at: '04:00', litres: 35 }] : [];
      for (let minute = Math.round(uniform(random, 300, 360)); minute < 18 * 60; ) {
        const km = roundTo(uniform(random, 1, 4), 2);
        const toward = pick(
          random,
          places.filter((place) => place.name !== home),
        ).name;
        plan.push({ kind: 'round', at: hhmm(minute), toward, km });
        // the round (out and back at town pace, with warm-up and lights) and the stand with the ignition off
        minute += Math.ceil(km * 2 + 6) + offMinutes;
      }
      const day = simulateDay({ vehicle, date, plan, seed: seed * 7_919 + index * 1_009 + n, reporting });
      vehicle = { ...vehicle, odometerKm: day.end.odometerKm, fuelLitres: day.end.fuelLitres };
      return day;
    });
  });
}
