/**
 * A deterministic fleet simulator: realistic days of normalized position records (DESIGN.md section 5)
 * around Johannesburg, each with the ground truth a correct detector has to find. Pure and seeded (no
 * Math.random, no clock), so a seed always gives the same records and tests can hold the detector to
 * known answers. Times in plans are UTC `HH:MM` on the simulated date.
 */
import { distanceKm, type LatLng } from '../shared/domain/geo.ts';

/** Depot, customers and a fuel stop around Johannesburg (the demo seed's places). */
export const places = [
  { name: 'Depot Midrand', lat: -25.9992, lng: 28.1263 },
  { name: 'Client Sandton', lat: -26.1076, lng: 28.0567 },
  { name: 'Client Kempton Park', lat: -26.1015, lng: 28.2308 },
  { name: 'Fuel stop Woodmead', lat: -26.0536, lng: 28.0936 },
] as const satisfies readonly (LatLng & { name: string })[];

export type PlaceName = (typeof places)[number]['name'];

export interface Place extends LatLng {
  name: PlaceName;
}

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
  /** pump `litres` into the parked vehicle (the tank stops at its capacity) */
  | { kind: 'fill'; at: string; litres: number }
  /** the engine idles without moving */
  | { kind: 'idle'; at: string; minutes: number }
  /** the device sends nothing (underground parking, no coverage); only while parked */
  | { kind: 'silence'; at: string; minutes: number };

export interface Reporting {
  /** seconds between records while the engine runs */
  drivingIntervalS: number;
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
}

export const DEFAULT_REPORTING: Reporting = {
  drivingIntervalS: 30,
  parkedIntervalS: [60, 120],
  cornerDeg: 10,
  fuelNoiseLitres: 0.6,
  spikeRate: 0.01,
  spikeLitres: 8,
  gpsNoiseM: 2.5,
  parkedJitterM: 3,
};

/** A normalized position record, every field present (the input PositionRecord parses). */
export interface SimulatedRecord {
  imei: string;
  gps_datetime: string;
  latitude: number;
  longitude: number;
  speed: number;
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

export interface SimulatedDay {
  vehicle: SimVehicle;
  records: SimulatedRecord[];
  truth: { trips: TruthTrip[]; fills: TruthFill[]; fuelUsedLitres: number };
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
/** trackers ignore heading changes below this speed, where the GPS heading is noise */
const CORNERING_MIN_KMH = 10;
const M_PER_DEG_LAT = 110_574;

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
    records: [],
    truth: { trips: [], fills: [], fuelUsedLitres: 0 },
    drives: [],
  };
  for (const event of plan) {
    if (event.kind === 'silence') continue;
    park(sim, Math.max(clock(event.at), sim.t));
    if (event.kind === 'drive') drive(sim, placeNamed(event.to));
    else if (event.kind === 'fill') pump(sim, event.litres);
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
  sim.truth.fuelUsedLitres = round(sim.burnt, 3);
  return { vehicle, records: sim.records, truth: sim.truth, end: { place: sim.place.name, fuelLitres: sim.fuel, odometerKm: sim.km } };
}

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
export function demoFleetDay(date: string, imeis: readonly string[], seed: number): SimulatedDay[] {
  return demoVehicles.slice(0, imeis.length).map((details, index) => {
    const odometerKm = round(details.odometerKm + demoDayKm(index) * daysBetween(DEMO_ODOMETER_DATE, date), 3);
    const vehicle = { ...details, imei: imeis[index] as string, odometerKm };
    return simulateDay({ vehicle, date, plan: demoPlans[index] as PlanEvent[], seed: seed * 31 + index });
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

// --- the simulation ----------------------------------------------------------------------------

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

function drive(sim: Sim, to: Place): void {
  const from = sim.place;
  const route = road(from, to);
  const { random } = sim;
  const ignitionOn = sim.t;
  ignition(sim, true);
  idle(sim, Math.round(uniform(random, 30, 120)));
  const departure = sim.t;
  const lights = route.lights.filter(() => random() < 0.5).map((atM) => ({ atM, waitS: Math.round(uniform(random, 15, 75)) }));
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
    distanceKm: round(route.lengthM / 1000, 4),
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
    litres: round(litres, 3),
    levelBefore: round(levelBefore, 3),
    levelAfter: round(sim.fuel, 3),
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
  const spike = random() < reporting.spikeRate ? (random() < 0.5 ? -1 : 1) * reporting.spikeLitres : 0;
  const sensed = sim.fuel + gaussian(random) * reporting.fuelNoiseLitres + spike;
  sim.records.push({
    imei: vehicle.imei,
    gps_datetime: gpsDatetime,
    latitude: round(sim.at.lat + (gaussian(random) * noiseM) / M_PER_DEG_LAT, 6),
    longitude: round(sim.at.lng + (gaussian(random) * noiseM) / (M_PER_DEG_LAT * Math.cos(sim.at.lat * (Math.PI / 180))), 6),
    speed: moving ? Math.max(1, Math.round(sim.speedMs / KMH + gaussian(random) * 0.7)) : random() < 0.05 ? 1 : 0,
    heading: Math.round(sim.heading),
    ignition: vehicle.ignitionWired ? sim.engineOn : null,
    odometer_km: vehicle.reportsOdometer ? Math.floor(sim.km * 10) / 10 : null,
    engine_hours: null,
    fuel_raw: Math.max(0, round(sensed / vehicle.fuelFactor, 1)),
    supp_volt: round((sim.engineOn ? 13.9 : 12.6) + gaussian(random) * 0.05, 2),
    int_batt_volt: 4.1,
    int_temp: Math.round(28 + gaussian(random)),
    ext_temp: null,
    driver_tag_id: sim.engineOn ? vehicle.driverTagId : null,
    device_type: vehicle.deviceType,
    config: vehicle.config,
  });
}

const parkedInterval = (sim: Sim): number => {
  const [low, high] = sim.reporting.parkedIntervalS;
  return Math.round(uniform(sim.random, low, high));
};

// --- roads ---------------------------------------------------------------------------------------

interface Limit {
  fromM: number;
  kmh: number;
}

interface Road {
  points: LatLng[];
  /** metres from the start to each point */
  cumM: number[];
  headings: number[];
  lengthM: number;
  /** traffic lights, metres from the start */
  lights: number[];
  limits: Limit[];
}

const roads = new Map<string, Road>();

/**
 * The road between two places: always the same for a pair (seeded by the names, whatever the day's seed),
 * driven the other way back. Bends from midpoint displacement, rounded by corner cutting; speed limits by section.
 */
function road(from: Place, to: Place): Road {
  const key = `${from.name}|${to.name}`;
  const known = roads.get(key);
  if (known) return known;
  // Built in one canonical direction, so the road never depends on which way was asked for first.
  const built = from.name < to.name ? buildRoad(from, to) : reversed(road(to, from));
  roads.set(key, built);
  return built;
}

function buildRoad(from: Place, to: Place): Road {
  const random = prng(hash(`${from.name}|${to.name}`));
  const cosLat = Math.cos(from.lat * (Math.PI / 180));
  const toXY = (p: LatLng) => ({ x: (p.lng - from.lng) * M_PER_DEG_LAT * cosLat, y: (p.lat - from.lat) * M_PER_DEG_LAT });
  let xy = [toXY(from), toXY(to)];
  for (let depth = 0; depth < 5; depth++) {
    xy = xy.flatMap((p, i) => {
      const q = xy[i + 1];
      if (!q) return [p];
      const offset = gaussian(random) * 0.12;
      return [p, { x: (p.x + q.x) / 2 - (q.y - p.y) * offset, y: (p.y + q.y) / 2 + (q.x - p.x) * offset }];
    });
  }
  for (let pass = 0; pass < 2; pass++) {
    xy = [
      xy[0] as { x: number; y: number },
      ...xy.slice(0, -1).flatMap((p, i) => {
        const q = xy[i + 1] as { x: number; y: number };
        return [
          { x: 0.75 * p.x + 0.25 * q.x, y: 0.75 * p.y + 0.25 * q.y },
          { x: 0.25 * p.x + 0.75 * q.x, y: 0.25 * p.y + 0.75 * q.y },
        ];
      }),
      xy.at(-1) as { x: number; y: number },
    ];
  }
  const points = xy.map((p) => ({
    lat: round(from.lat + p.y / M_PER_DEG_LAT, 7),
    lng: round(from.lng + p.x / (M_PER_DEG_LAT * cosLat), 7),
  }));
  const geometry = measure(points);
  const lights: number[] = [];
  for (let atM = uniform(random, 400, 1500); atM < geometry.lengthM - 400; atM += uniform(random, 700, 2500)) lights.push(atM);
  const limits: Limit[] = [{ fromM: 0, kmh: 60 }];
  for (let fromM = 1000; fromM < geometry.lengthM - 1000; fromM += uniform(random, 1500, 3500)) {
    limits.push({ fromM, kmh: pick(random, geometry.lengthM > 12_000 ? [60, 70, 80, 80, 100, 100] : [60, 60, 70, 80]) });
  }
  limits.push({ fromM: Math.max(geometry.lengthM - 1000, (limits.at(-1) as Limit).fromM + 1), kmh: 50 });
  return { ...geometry, lights, limits };
}

function reversed(road: Road): Road {
  const { lengthM } = road;
  const ends = road.limits.map((limit, i) => ({ kmh: limit.kmh, fromM: lengthM - (road.limits[i + 1]?.fromM ?? lengthM) }));
  return { ...measure([...road.points].reverse()), lights: road.lights.map((atM) => lengthM - atM).reverse(), limits: ends.reverse() };
}

function measure(points: LatLng[]): Pick<Road, 'points' | 'cumM' | 'headings' | 'lengthM'> {
  const cumM = [0];
  const headings: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as LatLng;
    const b = points[i] as LatLng;
    cumM.push((cumM[i - 1] as number) + distanceKm(a, b) * 1000);
    headings.push(bearing(a, b));
  }
  return { points, cumM, headings, lengthM: cumM.at(-1) as number };
}

function along(road: Road, segment: number, s: number): LatLng {
  const a = road.points[segment] as LatLng;
  const b = road.points[segment + 1] as LatLng;
  const start = road.cumM[segment] as number;
  const f = Math.min(1, Math.max(0, (s - start) / ((road.cumM[segment + 1] as number) - start)));
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f };
}

function bearing(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b.lng - a.lng) * rad) * Math.cos(b.lat * rad);
  const x = Math.cos(a.lat * rad) * Math.sin(b.lat * rad) - Math.sin(a.lat * rad) * Math.cos(b.lat * rad) * Math.cos((b.lng - a.lng) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}

const angleBetween = (a: number, b: number): number => ((a - b + 540) % 360) - 180;

// --- small helpers -------------------------------------------------------------------------------

/** mulberry32: a tiny, fast, seedable generator (uniform in [0, 1)). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a, to seed a road by its places' names. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const gaussian = (random: () => number): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const uniform = (random: () => number, low: number, high: number): number => low + (high - low) * random();
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

const placeNamed = (name: PlaceName): Place => places.find((place) => place.name === name) as Place;

function clock(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return (hours as number) * 3600 + (minutes as number) * 60;
}

const hhmm = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const iso = (sim: Sim, t: number): string => `${new Date(sim.dayStartMs + t * 1000).toISOString().slice(0, 19)}Z`;
