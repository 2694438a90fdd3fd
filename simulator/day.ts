/**
 * A deterministic fleet simulator: realistic days of normalized position records (DESIGN.md section 5)
 * around Johannesburg, each with the ground truth a correct detector has to find. Pure and seeded (no
 * Math.random, no clock), so a seed always gives the same records and tests can hold the detector to
 * known answers. Times in plans are UTC `HH:MM` on the simulated date.
 */
import { type LatLng, roundTo } from '../shared/domain/geo.ts';
import { type Place, type PlaceName, placeNamed } from './places.ts';
import { driftedGpsError, type GpsError, gaussian, NO_GPS_ERROR, prng, uniform } from './random.ts';
import { along, angleBetween, displaced, type Limit, outAndBack, type Road, road } from './roads.ts';

export interface SimVehicle {
  imei: string;
  /** where the day starts, parked with the engine off */
  home: PlaceName;
  fuelCapacity: number;
  /** litres per raw sensor unit */
  fuelFactor: number;
  /** tank level and true odometer at the start of the day */
  fuelLitres: number;
  odometerKm: number;
  litresPer100Km: number;
  idleLitresPerHour: number;
  /** false: the device has no ignition wire and reports `ignition: null` */
  ignitionWired: boolean;
  /** true: the device reads the vehicle's odometer (CAN, 0.1 km) and sends `odometer_km` */
  reportsOdometer: boolean;
  driverTagId: string | null;
  deviceType: string;
  config: string;
}

export type PlanEvent =
  /** ignition on, warm up, drive the road to `to`, stop, ignition off */
  | { kind: 'drive'; at: string; to: PlaceName }
  /** the same, out `km` / 2 along the road toward `toward`, turning and back to exactly where it started (a round from a depot bay) */
  | { kind: 'round'; at: string; toward: PlaceName; km: number }
  /** pump `litres` into the parked vehicle (the tank stops at its capacity) */
  | { kind: 'fill'; at: string; litres: number }
  /** `litres` siphoned from the parked vehicle's tank (a theft: the level falls and stays down) */
  | { kind: 'siphon'; at: string; litres: number }
  /** the engine idles without moving */
  | { kind: 'idle'; at: string; minutes: number }
  /** the device sends nothing (underground parking, no coverage); only while parked */
  | { kind: 'silence'; at: string; minutes: number };

export interface Reporting {
  /** seconds between records while the engine runs: the reporting rate (a phone 1 s, trackers 5 to 60 s) */
  drivingIntervalS: number;
  /** false: the device sends no GPS speed (`speed: null`), as many phones and simple trackers do */
  withSpeed: boolean;
  /** seconds between records while parked, drawn uniformly from this range */
  parkedIntervalS: readonly [number, number];
  /** an extra record once the heading turns this far from the last record's (cornering), as trackers do, so curves keep their length */
  cornerDeg: number;
  /** fuel sensor: gaussian noise, and the share of single samples that jump by ±spikeLitres */
  fuelNoiseLitres: number;
  spikeRate: number;
  spikeLitres: number;
  /** gaussian GPS noise while moving, and the jitter around a standing vehicle */
  gpsNoiseM: number;
  parkedJitterM: number;
  /** true: a standing vehicle's fixes are exactly where it stands (a tracker's static navigation holds the fix) */
  staticNavigation: boolean;
  /** decimals of latitude and longitude the device sends (4: about 11 m, 5: about 1 m) */
  decimals: number;
}

export const DEFAULT_REPORTING: Reporting = {
  drivingIntervalS: 30,
  withSpeed: true,
  parkedIntervalS: [60, 120],
  cornerDeg: 10,
  fuelNoiseLitres: 0.6,
  spikeRate: 0.01,
  spikeLitres: 8,
  gpsNoiseM: 2.5,
  parkedJitterM: 3,
  staticNavigation: false,
  decimals: 6,
};

/** A normalized position record, every field present (the input PositionRecord parses). */
export interface SimulatedRecord {
  imei: string;
  gps_datetime: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number;
  ignition: boolean | null;
  odometer_km: number | null;
  engine_hours: number | null;
  fuel_raw: number;
  supp_volt: number;
  int_batt_volt: number;
  int_temp: number;
  ext_temp: number | null;
  driver_tag_id: string | null;
  device_type: string;
  config: string;
}

/** With ignition wiring a trip runs from ignition on to ignition off; without, from departure to arrival. */
export interface TruthTrip {
  start: string;
  stop: string;
  distanceKm: number;
  from: PlaceName;
  to: PlaceName;
}

/** `at` is when the pump started; levels are the true tank contents in litres. */
export interface TruthFill {
  at: string;
  litres: number;
  levelBefore: number;
  levelAfter: number;
  place: PlaceName;
}

/** `at` is when the siphoning started; levels are the true tank contents in litres. */
export interface TruthDrop {
  at: string;
  litres: number;
  levelBefore: number;
  levelAfter: number;
  place: PlaceName;
}

export interface SimulatedDay {
  vehicle: SimVehicle;
  records: SimulatedRecord[];
  truth: { trips: TruthTrip[]; fills: TruthFill[]; drops: TruthDrop[]; fuelUsedLitres: number };
  /** where the day left the vehicle, to chain days */
  end: { place: PlaceName; fuelLitres: number; odometerKm: number };
}

export interface DayInput {
  vehicle: SimVehicle;
  /** yyyy-mm-dd; the day runs 00:00 to 24:00 UTC */
  date: string;
  /** in time order; an event starts at `at`, or when the one before it ends if that is later */
  plan: readonly PlanEvent[];
  seed: number;
  reporting?: Partial<Reporting>;
}

const DAY_S = 86_400;
const KMH = 1 / 3.6;
const ACCELERATION = 1.1;
const EASING = 0.8;
const BRAKING = 1.6;
const PUMP_LITRES_PER_S = 0.6;
const SIPHON_LITRES_PER_S = 0.15;
/** standing to turn round at the end of a round */
const TURNING_S = 3;
/** trackers ignore heading changes below this speed, where the GPS heading is noise */
const CORNERING_MIN_KMH = 10;

export function simulateDay(input: DayInput): SimulatedDay {
  const { vehicle, plan } = input;
  const home = placeNamed(vehicle.home);
  const sim: Sim = {
    vehicle,
    reporting: { ...DEFAULT_REPORTING, ...input.reporting },
    random: prng(input.seed),
    dayStartMs: Date.parse(`${input.date}T00:00:00Z`),
    silences: plan.flatMap((event) => (event.kind === 'silence' ? [[clock(event.at), clock(event.at) + event.minutes * 60] as const] : [])),
    t: 0,
    place: home,
    at: home,
    heading: 0,
    speedMs: 0,
    engineOn: false,
    fuel: vehicle.fuelLitres,
    km: vehicle.odometerKm,
    burnt: 0,
    nextDue: 0,
    lastHeading: 0,
    gpsError: NO_GPS_ERROR,
    records: [],
    truth: { trips: [], fills: [], drops: [], fuelUsedLitres: 0 },
    drives: [],
  };
  for (const event of plan) {
    if (event.kind === 'silence') continue;
    park(sim, Math.max(clock(event.at), sim.t));
    if (event.kind === 'drive') drive(sim, road(sim.place, placeNamed(event.to)), placeNamed(event.to));
    else if (event.kind === 'round') drive(sim, outAndBack(sim.place, placeNamed(event.toward), event.km * 1000), sim.place);
    else if (event.kind === 'fill') pump(sim, event.litres);
    else if (event.kind === 'siphon') siphon(sim, event.litres);
    else {
      ignition(sim, true);
      idle(sim, event.minutes * 60);
      ignition(sim, false);
    }
  }
  park(sim, Math.max(DAY_S, sim.t));
  for (const [from, to] of sim.silences) {
    if (sim.drives.some(([start, stop]) => start < to && stop > from)) throw new Error(`silence at ${iso(sim, from)} overlaps a drive`);
  }
  sim.truth.fuelUsedLitres = roundTo(sim.burnt, 3);
  return { vehicle, records: sim.records, truth: sim.truth, end: { place: sim.place.name, fuelLitres: sim.fuel, odometerKm: sim.km } };
}

interface Sim {
  vehicle: SimVehicle;
  reporting: Reporting;
  random: () => number;
  dayStartMs: number;
  silences: (readonly [number, number])[];
  /** seconds since midnight UTC */
  t: number;
  /** where the vehicle is parked (or last parked) */
  place: Place;
  /** true position */
  at: LatLng;
  heading: number;
  speedMs: number;
  engineOn: boolean;
  fuel: number;
  /** true odometer */
  km: number;
  burnt: number;
  nextDue: number;
  lastHeading: number;
  /** the GPS error of the last fix (metres north and east) and when it was made */
  gpsError: GpsError;
  records: SimulatedRecord[];
  truth: SimulatedDay['truth'];
  drives: [number, number][];
}

function park(sim: Sim, until: number): void {
  while (sim.nextDue < until) {
    sim.t = Math.max(sim.t, sim.nextDue);
    emit(sim);
  }
  sim.t = until;
}

/** The engine runs while the vehicle stands (warm-up, traffic lights, waiting). */
function idle(sim: Sim, seconds: number): void {
  const until = sim.t + seconds;
  while (sim.nextDue < until) {
    burn(sim, sim.nextDue - sim.t, 0);
    sim.t = sim.nextDue;
    emit(sim);
  }
  burn(sim, until - sim.t, 0);
  sim.t = until;
}

function ignition(sim: Sim, on: boolean): void {
  sim.engineOn = on;
  // A wired device records the ignition change at once; otherwise it only switches its reporting interval.
  if (sim.vehicle.ignitionWired) emit(sim);
  else sim.nextDue = on ? Math.min(sim.nextDue, sim.t + sim.reporting.drivingIntervalS) : sim.t + parkedInterval(sim);
}

function drive(sim: Sim, route: Road, to: Place): void {
  const from = sim.place;
  const { random } = sim;
  const ignitionOn = sim.t;
  ignition(sim, true);
  idle(sim, Math.round(uniform(random, 30, 120)));
  const departure = sim.t;
  const lights = [
    ...route.lights.filter(() => random() < 0.5).map((atM) => ({ atM, waitS: Math.round(uniform(random, 15, 75)) })),
    ...(route.turns ?? []).map((atM) => ({ atM, waitS: TURNING_S })),
  ].sort((a, b) => a.atM - b.atM);
  const temper = uniform(random, 0.9, 1.05);
  let drift = 0;
  let s = 0;
  let segment = 0;
  let limit = 0;
  let v = 0;
  while (true) {
    const stopAtM = lights[0]?.atM ?? route.lengthM;
    while (limit < route.limits.length - 1 && (route.limits[limit + 1] as Limit).fromM <= s) limit++;
    drift = drift * 0.95 + gaussian(random) * 0.8;
    const target = clamp((route.limits[limit] as Limit).kmh * temper + drift, 30, 100) * KMH;
    const eased = v < target ? Math.min(v + ACCELERATION, target) : Math.max(v - EASING, target);
    let next = Math.min(eased, Math.sqrt(2 * BRAKING * (stopAtM - s)));
    let step = (v + next) / 2;
    if (s + step >= stopAtM - 0.5) {
      step = stopAtM - s;
      next = 0;
    }
    s += step;
    v = next;
    while (segment < route.headings.length - 1 && (route.cumM[segment + 1] as number) <= s) segment++;
    sim.at = along(route, segment, s);
    sim.heading = route.headings[segment] as number;
    sim.speedMs = v;
    burn(sim, 1, step);
    sim.t += 1;
    const cornering = v >= CORNERING_MIN_KMH * KMH && Math.abs(angleBetween(sim.heading, sim.lastHeading)) >= sim.reporting.cornerDeg;
    if (sim.t >= sim.nextDue || cornering) emit(sim);
    if (v > 0) continue;
    if (s >= route.lengthM) break;
    idle(sim, (lights.shift() as { waitS: number }).waitS);
  }
  const arrival = sim.t;
  sim.place = to;
  sim.at = to;
  idle(sim, Math.round(uniform(random, 10, 60)));
  ignition(sim, false);
  const wired = sim.vehicle.ignitionWired;
  sim.drives.push([ignitionOn, sim.t]);
  sim.truth.trips.push({
    start: iso(sim, wired ? ignitionOn : departure),
    stop: iso(sim, wired ? sim.t : arrival),
    distanceKm: roundTo(route.lengthM / 1000, 4),
    from: from.name,
    to: to.name,
  });
}

function pump(sim: Sim, requested: number): void {
  const levelBefore = sim.fuel;
  const litres = Math.min(requested, sim.vehicle.fuelCapacity - levelBefore);
  const start = sim.t;
  const end = start + Math.max(1, Math.round(litres / PUMP_LITRES_PER_S));
  while (sim.nextDue < end) {
    sim.t = Math.max(sim.t, sim.nextDue);
    sim.fuel = levelBefore + (litres * (sim.t - start)) / (end - start);
    emit(sim);
  }
  sim.t = end;
  sim.fuel = levelBefore + litres;
  sim.truth.fills.push({
    at: iso(sim, start),
    litres: roundTo(litres, 3),
    levelBefore: roundTo(levelBefore, 3),
    levelAfter: roundTo(sim.fuel, 3),
    place: sim.place.name,
  });
}

function siphon(sim: Sim, requested: number): void {
  const levelBefore = sim.fuel;
  const litres = Math.min(requested, levelBefore);
  const start = sim.t;
  const end = start + Math.max(1, Math.round(litres / SIPHON_LITRES_PER_S));
  while (sim.nextDue < end) {
    sim.t = Math.max(sim.t, sim.nextDue);
    sim.fuel = levelBefore - (litres * (sim.t - start)) / (end - start);
    emit(sim);
  }
  sim.t = end;
  sim.fuel = levelBefore - litres;
  sim.truth.drops.push({
    at: iso(sim, start),
    litres: roundTo(litres, 3),
    levelBefore: roundTo(levelBefore, 3),
    levelAfter: roundTo(sim.fuel, 3),
    place: sim.place.name,
  });
}

function burn(sim: Sim, seconds: number, metres: number): void {
  const litres = (sim.vehicle.idleLitresPerHour * seconds) / 3600 + (sim.vehicle.litresPer100Km * metres) / 100_000;
  sim.fuel = Math.max(0, sim.fuel - litres);
  sim.burnt += litres;
  sim.km += metres / 1000;
}

function emit(sim: Sim): void {
  const { vehicle, reporting, random } = sim;
  const moving = sim.speedMs > 0;
  const silent = sim.silences.some(([from, to]) => sim.t >= from && sim.t < to);
  const last = sim.records.at(-1);
  const gpsDatetime = iso(sim, sim.t);
  sim.nextDue = sim.t + (sim.engineOn ? reporting.drivingIntervalS : parkedInterval(sim));
  sim.lastHeading = sim.heading;
  if (silent || last?.gps_datetime === gpsDatetime) return;
  const noiseM = moving ? reporting.gpsNoiseM : reporting.parkedJitterM;
  sim.gpsError = driftedGpsError(random, sim.gpsError, sim.t, noiseM);
  const seen = reporting.staticNavigation && !moving ? sim.at : displaced(sim.at, sim.gpsError);
  const spike = random() < reporting.spikeRate ? (random() < 0.5 ? -1 : 1) * reporting.spikeLitres : 0;
  const sensed = sim.fuel + gaussian(random) * reporting.fuelNoiseLitres + spike;
  sim.records.push({
    imei: vehicle.imei,
    gps_datetime: gpsDatetime,
    latitude: roundTo(seen.lat, reporting.decimals),
    longitude: roundTo(seen.lng, reporting.decimals),
    speed: reported(reporting, moving ? Math.max(1, Math.round(sim.speedMs / KMH + gaussian(random) * 0.7)) : random() < 0.05 ? 1 : 0),
    heading: Math.round(sim.heading),
    ignition: vehicle.ignitionWired ? sim.engineOn : null,
    odometer_km: vehicle.reportsOdometer ? Math.floor(sim.km * 10) / 10 : null,
    engine_hours: null,
    fuel_raw: Math.max(0, roundTo(sensed / vehicle.fuelFactor, 1)),
    supp_volt: roundTo((sim.engineOn ? 13.9 : 12.6) + gaussian(random) * 0.05, 2),
    int_batt_volt: 4.1,
    int_temp: Math.round(28 + gaussian(random)),
    ext_temp: null,
    driver_tag_id: sim.engineOn ? vehicle.driverTagId : null,
    device_type: vehicle.deviceType,
    config: vehicle.config,
  });
}

/** The speed reading as the device sends it; drawn either way, so a day with and without speed has the same fixes. */
const reported = (reporting: Reporting, speed: number): number | null => (reporting.withSpeed ? speed : null);

const parkedInterval = (sim: Sim): number => {
  const [low, high] = sim.reporting.parkedIntervalS;
  return Math.round(uniform(sim.random, low, high));
};

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

function clock(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return (hours as number) * 3600 + (minutes as number) * 60;
}

const iso = (sim: Sim, t: number): string => `${new Date(sim.dayStartMs + t * 1000).toISOString().slice(0, 19)}Z`;
