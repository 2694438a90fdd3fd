/**
 * Turns one vehicle's positions, in GPS order, into its odometer, engine hours, trips and fuel fills.
 * A pure state machine: the state after a batch is the input of the next one, so a day fed in one piece
 * or in many batches gives the same answers. Points not newer than the last one are ignored here; the
 * pipeline (shared/pipeline/track-vehicle.ts) handles late points by re-running from an earlier checkpoint.
 */
import { type DetectedDrop, type FuelDropSettings, type FuelDropState, initialFuelDropState, trackFuelDrop } from '../events/fuel-drops.ts';
import { distanceKm } from '../geo.ts';
import { secondsBetween as seconds } from '../time.ts';
import {
  fixFault,
  fuelReadingFault,
  type IgnoredReading,
  jumpVerdict,
  MAX_HELD,
  NO_PASSED_FIXES,
  type OdometerReading,
  odometerStep,
  outlierFix,
  type PassedFixes,
  rememberFix,
  resentFixes,
  secondOf,
  staleFix,
} from './faults.ts';
import { beyondNoiseKm, type GpsNoise, NO_GPS_NOISE, noiseM, withFix } from './gps-noise.ts';
import type { Position } from './position.ts';
import type { DetectionSettings } from './settings.ts';

/** A processed position: what the detector remembers of it. */
export interface TrackPoint {
  at: string;
  lat: number;
  lng: number;
  speed: number | null;
  ignition: boolean | null;
  odometerKm: number;
  engineHours: number | null;
  /** median-filtered litres */
  fuel: number | null;
  /** this point's own reading in litres, when it counted (not a dropout, not held) */
  fuelReading?: number | null;
  driverTagId: string | null;
  /** not moving: GPS speed below a walking pace, or (without speed) hardly a step from the previous point */
  standing?: boolean;
  /** standing, reached across a silence longer than the stop time: when the vehicle got here */
  arrivedAt?: string;
  /** standing by speed readings seconds apart: the vehicle stood, and any step is its receiver's error */
  still?: boolean;
  /** without speed, reached by leaving the radius around the last counted point along a path that makes progress */
  left?: boolean;
}

interface OpenTrip {
  start: TrackPoint;
  maxSpeed: number;
  driverTagId: string | null;
}

type Level = TrackPoint & { fuel: number };

interface Parked {
  /** the standing level: a running mean of the filtered level, held while the level stands above it */
  base: number;
  baseSamples: number;
  /** the last point still at the base level: where and when a rise begins */
  before: Level;
  /** since when the level has stood above the base without making a fill */
  aboveSince: string | null;
  /** before carries the base level; settled is the mean level since the last step up */
  rise: { before: Level; lastRiseAt: string; settled: number; settledSamples: number } | null;
}

/** Everything carried from one batch to the next (stored as one item per vehicle). */
export interface TrackState {
  last: TrackPoint | null;
  odometerKm: number;
  engineHours: number | null;
  fuelSamples: number[];
  ignitionOnAt: TrackPoint | null;
  trip: OpenTrip | null;
  /** without ignition: the last point of the current stop (where it stood, and when it last stood there) */
  stop: TrackPoint | null;
  /** without ignition, out of the stop but not yet beyond its radius: where the trip would start (optional: older states) */
  departure?: TrackPoint | null;
  /** without ignition, since the departure: the first point of the vehicle's current halt inside the radius */
  halt?: TrackPoint | null;
  /** without ignition: the first fix out of the stop radius, the trip to open once the next one is out too (optional: older states) */
  leaving?: TrackPoint | null;
  /** the fixes passed through lately, to know a resent old one (a stale fix; optional: older states) */
  passed?: PassedFixes;
  /** fixes that look resent or thrown off, held until the next fix shows whether the vehicle was there (optional: older states) */
  held?: Position[];
  /** why the fixes are held: resent (a run of them) or an outlier (one), 'stale fix' where absent */
  heldAs?: 'stale fix' | 'outlier';
  /** the newest fix read, counted or ignored: a later fix of its second is the same instant (optional: older states) */
  seenAt?: string;
  /** without ignition, during a trip: the trailing points that may turn out to be a stop */
  dwell: TrackPoint[];
  parked: Parked | null;
  lastFill: { odometerKm: number; engineHours: number | null; levelAfter: number } | null;
  lastTripStart: string | null;
  /** the device odometer's last reading and the odometer then: readings count as deltas from it (optional: older states) */
  odometerReading?: (OdometerReading & { odometerKm: number }) | null;
  /** fixes just ignored as jumps that agree with each other: enough of them are a relocation */
  jumps?: Array<{ at: string; lat: number; lng: number }>;
  /** fuel readings fallen below the level, held until they come back (a dropout) or stay down (fuel gone) */
  fuelHeld?: Array<{ at: string; litres: number }>;
  /**
   * without speed: the last point counted as reached, the path walked since it and that path's last vertex (optional:
   * older states)
   */
  anchor?: {
    at: string;
    lat: number;
    lng: number;
    pathKm: number;
    via?: { lat: number; lng: number };
    /** out of a trip: the first fix out of the radius, counted once the next one is out too (an outlier comes back) */
    out?: { at: string; lat: number; lng: number };
    /** placed by a step the speed says was driven: its path is the road's, not a parked receiver's wandering */
    driven?: boolean;
  } | null;
  /** the fuel.dropped step's state (shared/domain/events/fuel-drops.ts; optional: older states) */
  fuelDrop?: FuelDropState;
  /** the receiver's error estimated from the fixes counted, taken off every step (gps-noise.ts; optional: older states) */
  noise?: GpsNoise;
  /**
   * out of a trip, without speed: the steps counted in the last UNSETTLED_S, which join the odometer only if a trip
   * opens from before them (optional: older states)
   */
  unsettled?: Array<{ at: string; km: number }>;
}

export interface DetectedTrip {
  startTime: string;
  stopTime: string;
  odometerAtStart: number;
  distanceKm: number;
  durationS: number;
  maxSpeed: number;
  fuelStart: number | null;
  fuelEnd: number | null;
  startLat: number;
  startLng: number;
  stopLat: number;
  stopLng: number;
  driverTagId: string | null;
}

export interface DetectedFill {
  at: string;
  latitude: number;
  longitude: number;
  levelBefore: number;
  levelAfter: number;
  fillQty: number;
  odometerKm: number;
  engineHours: number | null;
  driverTagId: string | null;
  /** start of the trip just before the fill */
  precedingTripStart: string | null;
  sincePreviousFill: { distanceKm: number; durationS: number | null; fuelUsed: number } | null;
}

export interface VehicleProfile {
  odometerAtStartKm: number;
  startHours: number | null;
  fuelCapacity: number | null;
  fuelFactor: number;
}

export interface Detection {
  state: TrackState;
  trips: DetectedTrip[];
  fills: DetectedFill[];
  /** fuel drops (fuel.dropped), found only when detect is given their settings */
  drops: DetectedDrop[];
  /** the newest position taken in this batch, for the live record */
  latest: Position | null;
  /** points and readings not counted (device faults), oldest first */
  ignored: IgnoredReading[];
}

/** GPS speed at or above this is movement, below it jitter. */
const MOVING_KMH = 3;
/** With ignition on, a trip starts once the vehicle is this fast or this far from where the ignition came on. */
const DEPARTURE_KMH = 5;
const DEPARTURE_KM = 0.1;
/**
 * Without speed data, leaving this radius around the last counted point is movement: displacement over time,
 * never one step's length, so a 1 Hz drive counts all its steps and parked jitter none.
 */
const MIN_STEP_KM = 0.05;
/**
 * The path walked inside the radius is drawn through fixes at least VERTEX_KM apart, so jitter smaller than that draws
 * none. A path longer than MAX_WINDING times the displacement is jitter: only the displacement counts; one walked at
 * TURN_KMH or faster may wind up to MAX_TURN_WINDING times it (a roundabout, a U-turn, a car park).
 */
const VERTEX_KM = 0.015;
/**
 * Where fixes carry independent errors (gps-noise.ts), a vertex, and a step counted as driving, must also clear this many
 * times the error per axis: two fixes of a vehicle standing still are that far apart once in about 500 (Rayleigh, scale
 * σ√2), so a light's jitter at 5–15 s draws no path.
 */
const VERTEX_NOISE_TIMES = 5;
/** An estimated error under this (m) is none: clean fixes read that much at most, a road's shape read as error. */
const CLEAN_FIXES_M = 1;
const vertexKmOf = (noise: GpsNoise | undefined): number => Math.max(VERTEX_KM, (VERTEX_NOISE_TIMES * noiseM(noise)) / 1000);
/** A fix is out of the stop once it is the stop radius plus this many times the fixes' independent error from it. */
const STOP_NOISE_TIMES = 3;
const MAX_WINDING = 1.5;
const MAX_TURN_WINDING = 3;
const TURN_KMH = 10;
/** Fixes this close to where the vehicle stands are the same spot (GPS jitter included). */
const ARRIVAL_SPOT_KM = 0.02;
/** Standing speed readings at most this far apart (seconds) show the vehicle stood between them. */
const STANDING_BRACKET_S = 10;
/** Without a speed reading, how fast a vehicle covers a step it made across a silence. */
const TOWN_KMH = 30;
/** Out of a trip, how long a step without speed waits for a trip to open from before it (holdUnsettled). */
const UNSETTLED_S = 600;

export function initialTrackState(profile: VehicleProfile): TrackState {
  return {
    last: null,
    odometerKm: profile.odometerAtStartKm,
    engineHours: profile.startHours,
    fuelSamples: [],
    ignitionOnAt: null,
    trip: null,
    stop: null,
    dwell: [],
    parked: null,
    lastFill: null,
    lastTripStart: null,
    odometerReading: null,
    jumps: [],
    anchor: null,
    departure: null,
    halt: null,
    leaving: null,
    passed: NO_PASSED_FIXES,
    held: [],
    fuelHeld: [],
    noise: NO_GPS_NOISE,
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export function detect(
  previous: TrackState,
  positions: readonly Position[],
  profile: VehicleProfile,
  settings: DetectionSettings,
  dropSettings?: FuelDropSettings,
): Detection {
  const state: TrackState = structuredClone(previous);
  const trips: DetectedTrip[] = [];
  const fills: DetectedFill[] = [];
  const drops: DetectedDrop[] = [];
  const ignored: IgnoredReading[] = [];
  const ordered = [...positions].sort((a, b) => a.gps_datetime.localeCompare(b.gps_datetime));
  const run: Run = { state, profile, settings, dropSettings, trips, fills, drops, ignored, latest: null };
  for (const position of ordered) take(run, position);
  const latest = run.latest;
  return { state, trips, fills, drops, latest, ignored };
}

/** One detect call's inputs and findings, as each position is taken. */
interface Run {
  state: TrackState;
  profile: VehicleProfile;
  settings: DetectionSettings;
  dropSettings: FuelDropSettings | undefined;
  trips: DetectedTrip[];
  fills: DetectedFill[];
  drops: DetectedDrop[];
  ignored: IgnoredReading[];
  latest: Position | null;
}

/**
 * One position: a device fault is ignored (its ignition still counts); a fix that looks resent or thrown off is held
 * until the next fix shows whether the vehicle was really there; a counted one moves the odometer, trips, fills and drops
 * on.
 */
function take(run: Run, position: Position, trusted = false): void {
  const { state, settings } = run;
  // Several fixes of one second are one: the first counts, or is ignored, and the later ones are not read (the pipeline
  // stores the earliest fix of a second only, whatever becomes of it). A held fix taken after all is older than the fix
  // that decided it, read already.
  const seen = [state.last?.at, trusted ? undefined : state.seenAt, ...(state.held ?? []).map((held) => held.gps_datetime)].filter(
    (at): at is string => at !== undefined,
  );
  if (seen.some((at) => secondOf(position.gps_datetime) <= secondOf(at))) return;
  const at = position.gps_datetime;
  if (!trusted) state.seenAt = at;
  const fix = { at, lat: position.latitude, lng: position.longitude };
  const passed = state.passed ?? NO_PASSED_FIXES;
  const bad = fixFault(position);
  // an outlier is decided by the very next fix, before it can be held itself
  if (!bad && state.heldAs === 'outlier') settleHeld(run, fix);
  if (!bad && !trusted && staleFix(state.last, passed, fix)) {
    hold(run, position, 'stale fix');
    return;
  }
  if (!bad && (state.held ?? []).length > 0) settleHeld(run, fix);
  const jump = bad ? undefined : jumpVerdict(state.last, state.jumps ?? [], fix, settings.maxSpeedKmh);
  if (bad || jump?.verdict === 'jump') {
    run.ignored.push({ at, fault: bad ?? 'speed jump', decidedAt: at });
    if (jump?.verdict === 'jump') state.jumps = jump.run;
    takeIgnitionOnly(state, position, settings, run.trips);
    return;
  }
  if (
    !trusted &&
    jump?.verdict === 'counted' &&
    outlierFix(passed.previous, state.last, fix, { last: state.last?.speed ?? null, fix: position.speed })
  ) {
    hold(run, position, 'outlier');
    return;
  }
  state.jumps = [];
  state.passed = rememberFix(state.passed ?? NO_PASSED_FIXES, state.last, fix);
  count(run, position, jump?.verdict === 'relocated');
}

/**
 * A fix at exactly one the vehicle passed, behind it, or one thrown off its way: held (its ignition counts now) until the
 * next fix decides.
 */
function hold(run: Run, position: Position, as: 'stale fix' | 'outlier'): void {
  const { state } = run;
  state.held = [...(state.held ?? []), position];
  state.heldAs = as;
  takeIgnitionOnly(state, position, run.settings, run.trips);
  if (state.held.length > MAX_HELD) settleHeld(run, null);
}

/**
 * The held fixes were resent (or thrown off) when the vehicle is next seen nearer its last counted fix than them;
 * otherwise it was there.
 */
function settleHeld(run: Run, next: { at: string; lat: number; lng: number } | null): void {
  const held = run.state.held ?? [];
  const fault = run.state.heldAs ?? 'stale fix';
  run.state.held = [];
  delete run.state.heldAs;
  const spot = held.at(-1);
  const last = run.state.last;
  if (next && spot && last && !resentFixes(last, { lat: spot.latitude, lng: spot.longitude }, next)) {
    for (const position of held) take(run, position, true);
    return;
  }
  const decidedAt = next?.at ?? (spot as Position).gps_datetime;
  run.ignored.push(...held.map((position) => ({ at: position.gps_datetime, fault, decidedAt })));
}

function count(run: Run, position: Position, relocated: boolean): void {
  const { state, profile, settings, dropSettings } = run;
  const silence = silenceBefore(state, position, settings);
  if (silence) endSilence(state, settings, run.trips);
  state.noise = withFix(state.noise ?? NO_GPS_NOISE, { at: position.gps_datetime, lat: position.latitude, lng: position.longitude });
  const point = advance(state, position, profile, settings, run.ignored, relocated || silence === 'unseen stop');
  trackTrip(state, point, position, settings, run.trips);
  trackFuel(state, point, profile, settings, run.fills);
  if (dropSettings) {
    state.fuelDrop ??= initialFuelDropState();
    const reading = position.fuel_raw === null ? null : position.fuel_raw * profile.fuelFactor;
    const fuelPoint = { at: position.gps_datetime, lat: point.lat, lng: point.lng, level: point.fuel, reading, moving: !standing(point) };
    const drop = trackFuelDrop(state.fuelDrop, fuelPoint, dropSettings);
    if (drop) run.drops.push(drop);
  }
  state.last = point;
  run.latest = position;
}

const tracksIgnition = (position: Position, settings: DetectionSettings): boolean => settings.useIgnition && position.ignition !== null;

/**
 * A fix ignored as a device fault loses its position, never its ignition: an ignition change it carries starts or ends
 * the trip where the vehicle last was (a vehicle back at exactly its bay, a fix resent or thrown off as it parks).
 */
function takeIgnitionOnly(state: TrackState, position: Position, settings: DetectionSettings, trips: DetectedTrip[]): void {
  const last = state.last;
  if (!last || !tracksIgnition(position, settings) || position.ignition === last.ignition) return;
  const here: TrackPoint = { ...last, at: position.gps_datetime, speed: position.speed, ignition: position.ignition, standing: true };
  delete here.arrivedAt;
  trackTripByIgnition(state, here, settings, trips);
  state.last = { ...last, ignition: position.ignition };
}

/**
 * What a silence before `position` means: over maxGapS, a gap (the trip ends, the step is unknown); on a trip without
 * ignition, an unseen stop where the vehicle is seen again moving on, out of the stop radius, and could have stood the
 * stop time in the silence besides covering the step at a town pace (a phone that records only while the engine runs, a tracker
 * asleep while parked): the trip ends where it was last seen, the next one starts where it is seen again, and the
 * unseen step belongs to neither.
 */
function silenceBefore(state: TrackState, position: Position, settings: DetectionSettings): 'gap' | 'unseen stop' | null {
  const last = state.last;
  if (!last) return null;
  const silentS = seconds(last.at, position.gps_datetime);
  if (silentS > settings.maxGapS) return 'gap';
  if (!state.trip || silentS <= settings.stopDwellS || tracksIgnition(position, settings)) return null;
  const km = distanceKm(last, { lat: position.latitude, lng: position.longitude });
  const standingS = silentS - (km / TOWN_KMH) * 3600;
  // seen again standing (by its speed, or slower than a walking pace across the silence), it arrived there: the trip ends there
  const movingOn = (position.speed ?? (km / silentS) * 3600) >= MOVING_KMH;
  return movingOn && km >= settings.stopRadiusKm && standingS >= settings.stopDwellS ? 'unseen stop' : null;
}

/**
 * A silence longer than maxGapS ends the trip where the vehicle last moved to, and the next trip starts after it: the same
 * rule whether the next point shows the silence or the quiet-vehicles check finds it (endSilentTrip).
 */
function endSilence(state: TrackState, settings: DetectionSettings, trips: DetectedTrip[]): void {
  // where the vehicle last moved to
  if (state.trip && state.last) closeTrip(state, tripEnd(state, state.last), settings, trips);
  state.ignitionOnAt = null;
  state.stop = null;
  state.departure = null;
  state.halt = null;
  state.leaving = null;
}

/**
 * The trip a vehicle that fell silent longer than maxGapS leaves open, closed as the gap rule will close it when a
 * later point shows the silence (shared/pipeline/quiet-vehicles.ts); nothing when no trip is open.
 */
export function endSilentTrip(previous: TrackState, settings: DetectionSettings): { state: TrackState; trips: DetectedTrip[] } {
  const state = structuredClone(previous);
  const trips: DetectedTrip[] = [];
  if (state.trip) endSilence(state, settings, trips);
  return { state, trips };
}

/**
 * Odometer, engine hours and the filtered fuel level at the new position. After a relocation (a run of far-off
 * fixes that agree) or an unseen stop the step there is unknown, as after a silence: it adds no distance.
 */
function advance(
  state: TrackState,
  position: Position,
  profile: VehicleProfile,
  settings: DetectionSettings,
  ignored: IgnoredReading[],
  unseenStep: boolean,
): TrackPoint {
  const last = state.last;
  const elapsed = last ? seconds(last.at, position.gps_datetime) : 0;
  const continuous = last !== null && elapsed <= settings.maxGapS && !unseenStep;
  const here = { lat: position.latitude, lng: position.longitude };

  const step = last && continuous ? distanceKm(last, here) : 0;
  // A speed reading is one instant: a slow one at the end of a long step does not undo the displacement.
  const bySpeed = position.speed !== null && (position.speed >= MOVING_KMH || (last?.speed ?? 0) >= MOVING_KMH);
  // Two standing readings seconds apart bracket the step: no vehicle covers metres between them, its GPS error does.
  const bracketed = !bySpeed && position.speed !== null && last?.speed != null && elapsed <= STANDING_BRACKET_S;
  const byDisplacement = bySpeed
    ? null
    : bracketed
      ? { km: 0, standing: true }
      : displacement(state, position, { km: step, seconds: elapsed }, continuous, settings.stopDwellS);
  const gpsKm = byDisplacement ? byDisplacement.km : continuous ? movedBySpeed(state, { at: position.gps_datetime, ...here }, step) : 0;
  if (!byDisplacement && !continuous) state.anchor = { at: position.gps_datetime, ...here, pathKm: 0 };
  if (position.odometer_km !== null)
    advanceOdometer(state, { km: position.odometer_km, at: position.gps_datetime }, gpsKm, settings, ignored);
  else state.odometerKm += gpsKm;

  if (position.engine_hours !== null) state.engineHours = position.engine_hours;
  else if (last && continuous && last.ignition && position.ignition) state.engineHours = (state.engineHours ?? 0) + elapsed / 3600;

  const reading = position.fuel_raw === null ? null : { at: position.gps_datetime, litres: position.fuel_raw * profile.fuelFactor };
  const fuelReading = reading && takeFuelReading(state, reading, profile, settings, ignored) ? reading.litres : null;
  return {
    at: position.gps_datetime,
    ...here,
    speed: position.speed,
    ignition: position.ignition,
    odometerKm: state.odometerKm,
    engineHours: state.engineHours,
    // Until the window is full a single spike would pass the median as a level.
    fuel: state.fuelSamples.length >= settings.fuelMedianWindow ? median(state.fuelSamples) : null,
    fuelReading,
    driverTagId: position.driver_tag_id,
    standing: position.speed === null ? (byDisplacement?.standing ?? false) : position.speed < MOVING_KMH,
    ...(bracketed ? { still: true } : {}),
    ...(byDisplacement?.left ? { left: true } : {}),
  };
}

/**
 * Without speed, or with a speed under walking pace: the point is reached once it leaves MIN_STEP_KM around the anchor
 * (on a trip, VERTEX_KM at TURN_KMH or faster; out of a trip, once the next fix is out too); the distance added is the
 * path walked since the anchor (curves kept), or only the displacement where that path winds like parked jitter. A
 * point inside the radius stands when its implied speed from the anchor is below a walking pace.
 */
function displacement(
  state: TrackState,
  position: Position,
  step: { km: number; seconds: number },
  continuous: boolean,
  stopDwellS: number,
): { km: number; standing: boolean; left?: boolean } {
  const { km: stepKm, seconds: stepS } = step;
  const here = { at: position.gps_datetime, lat: position.latitude, lng: position.longitude };
  const anchor = continuous ? state.anchor : null;
  if (!anchor) {
    state.anchor = { ...here, pathKm: 0 };
    return { km: 0, standing: true };
  }
  const away = distanceKm(anchor, here);
  const hours = seconds(anchor.at, here.at) / 3600;
  // On a trip (or leaving the stop, its trip to open at this fix), a vehicle clearly under way counts as it goes, not
  // 50 m behind: the live odometer keeps up with it.
  const onTrip = state.trip !== null || Boolean(state.leaving);
  const vertexKm = vertexKmOf(state.noise);
  const driving = onTrip && away >= vertexKm && hours > 0 && away / hours >= TURN_KMH;
  // Out of a trip the radius also clears the fixes' own errors, as a vertex does: a parked receiver off by 30 m crossed
  // 50 m at two fixes in a row every few fixes, and its odometer crept tens of kilometres over hours.
  const radiusKm = onTrip ? MIN_STEP_KM : Math.max(MIN_STEP_KM, vertexKm);
  if (away >= radiusKm && !onTrip && !anchor.out) {
    state.anchor = { ...anchor, out: here };
    return { km: 0, standing: true };
  }
  if (away >= radiusKm || driving) {
    state.anchor = { ...here, pathKm: 0 };
    // Out of a trip, a path that winds there may be a parked receiver's wandering error (its steps go every way): it
    // opens no trip, however far it wanders; a departure that makes progress does.
    const path = walkedPath(anchor, here, state.noise, away, onTrip);
    // reached across a silence longer than a stop, slower than a walking pace: it arrived during the silence and stands
    const arrived = stepS > stopDwellS && stepKm / (stepS / 3600) < MOVING_KMH;
    if (!state.trip) holdUnsettled(state, { at: here.at, km: path.km });
    return { km: state.trip ? path.km : 0, standing: arrived, ...(path.winding ? {} : { left: true }) };
  }
  const { out: _outlier, ...kept } = anchor;
  const chordKm = distanceKm(anchor.via ?? anchor, here);
  const vertex = { lat: here.lat, lng: here.lng };
  state.anchor = chordKm >= vertexKm ? { ...kept, pathKm: anchor.pathKm + beyondNoiseKm(chordKm, state.noise), via: vertex } : kept;
  return { km: 0, standing: hours > 0 && away / hours < MOVING_KMH };
}

/**
 * Out of a trip, a step without speed counts once a trip opens from before it: a departure's first 200 m (curves in its
 * yard and all) belong to its trip, while a parked receiver's drifting error, which walks its fixes off smoothly and
 * back as a slow departure goes, opens none and so adds nothing (counted as it came, a receiver off by 30 m added 4–12 km
 * in 3 hours parked). A step older than UNSETTLED_S when the trip opens was no part of the departure.
 */
function holdUnsettled(state: TrackState, step: { at: string; km: number }): void {
  const recent = (state.unsettled ?? []).filter(({ at }) => seconds(at, step.at) <= UNSETTLED_S);
  state.unsettled = [...recent, step];
}

/**
 * A step the speed says was driven. Where the fixes carry independent errors it counts as the path does without speed:
 * a fix counts once it is VERTEX_NOISE_TIMES times the error from the last counted one, and nearer ones draw the path's
 * vertices, so the error's zig-zag between fixes a few metres apart is not counted as path (at 5 s and 10 m of error,
 * counting every step less its share of the error measured up to 8.6 % long). Clean fixes (an estimate under a metre)
 * count every step.
 */
function movedBySpeed(state: TrackState, here: { at: string; lat: number; lng: number }, stepKm: number): number {
  const anchor = state.anchor;
  const errorM = noiseM(state.noise);
  const gateKm = (VERTEX_NOISE_TIMES * errorM) / 1000;
  if (!anchor?.driven || anchor.out || errorM < CLEAN_FIXES_M) {
    // A fix out of the radius that waited for the next one to agree: moving on, this one does.
    const left = anchor?.out ? walkedPath(anchor, anchor.out, state.noise).km : 0;
    state.anchor = { ...here, pathKm: 0, driven: true };
    return left + beyondNoiseKm(stepKm, state.noise);
  }
  const chordKm = distanceKm(anchor.via ?? anchor, here);
  if (distanceKm(anchor, here) >= gateKm) {
    state.anchor = { ...here, pathKm: 0, driven: true };
    // where the vehicle stood meanwhile, its fixes' wandering drew vertices: a path that winds counts as displacement
    return walkedPath(anchor, here, state.noise).km;
  }
  if (chordKm >= gateKm) state.anchor = { ...anchor, pathKm: anchor.pathKm + beyondNoiseKm(chordKm, state.noise), via: here };
  return 0;
}

/**
 * The path walked from the anchor to `to` (through the anchor's vertices and its fix out of the radius), or only the
 * displacement where that path winds like parked jitter.
 */
function walkedPath(
  anchor: NonNullable<TrackState['anchor']>,
  to: { at: string; lat: number; lng: number },
  noise: GpsNoise | undefined,
  away = distanceKm(anchor, to),
  turning = true,
): { km: number; winding: boolean } {
  const via = anchor.via ?? anchor;
  const chords = anchor.out ? [distanceKm(via, anchor.out), distanceKm(anchor.out, to)] : [distanceKm(via, to)];
  const pathKm = chords.reduce((km, chord) => km + beyondNoiseKm(chord, noise), anchor.pathKm);
  const hours = seconds(anchor.at, to.at) / 3600;
  const limit = turning && hours > 0 && pathKm / hours >= TURN_KMH ? MAX_TURN_WINDING : MAX_WINDING;
  const displacementKm = beyondNoiseKm(away, noise);
  return pathKm <= displacementKm * limit ? { km: pathKm, winding: false } : { km: displacementKm, winding: true };
}

/** The first reading is the odometer; each one after adds its step from the one before, or the positions' step where it cannot be true. */
function advanceOdometer(
  state: TrackState,
  reading: OdometerReading,
  gpsKm: number,
  settings: DetectionSettings,
  ignored: IgnoredReading[],
): void {
  const previous = state.odometerReading ?? null;
  const { km, fault } = odometerStep(previous, reading, gpsKm, settings);
  if (fault) ignored.push({ at: reading.at, fault, decidedAt: reading.at });
  // Positions without a reading between two readings added their steps already; the device's delta replaces them.
  if (!previous) state.odometerKm = reading.km;
  else if (fault) state.odometerKm += km;
  else state.odometerKm = Math.max(state.odometerKm, previous.odometerKm + km);
  state.odometerReading = { ...reading, odometerKm: state.odometerKm };
}

const fillThreshold = (profile: VehicleProfile, settings: DetectionSettings): number =>
  Math.max(settings.fillMinLitres, ((profile.fuelCapacity ?? 0) * settings.fillMinPercent) / 100);

/**
 * A reading no tank holds is dropped; one that falls a fill's worth below the level is held: back within
 * fuelDropoutSamples readings, the held ones were a dropout; still down, the fuel is gone and they count.
 */
function takeFuelReading(
  state: TrackState,
  reading: { at: string; litres: number },
  profile: VehicleProfile,
  settings: DetectionSettings,
  ignored: IgnoredReading[],
): boolean {
  const count = (litres: number) => {
    state.fuelSamples = [...state.fuelSamples, litres].slice(-settings.fuelMedianWindow);
  };
  if (fuelReadingFault(reading.litres, profile.fuelCapacity, settings)) {
    ignored.push({ at: reading.at, fault: 'fuel dropout', decidedAt: reading.at });
    return false;
  }
  const level = state.fuelSamples.length > 0 ? median(state.fuelSamples) : null;
  const fall = fillThreshold(profile, settings);
  const held = state.fuelHeld ?? [];
  if (held.length === 0) {
    if (level !== null && reading.litres < level - fall) {
      state.fuelHeld = [reading];
      return false;
    }
    count(reading.litres);
    return true;
  }
  if (level !== null && reading.litres >= level - fall / 2) {
    ignored.push(...held.map(({ at }) => ({ at, fault: 'fuel dropout' as const, decidedAt: reading.at })));
    state.fuelHeld = [];
    count(reading.litres);
    return true;
  }
  state.fuelHeld = [...held, reading];
  if (state.fuelHeld.length <= settings.fuelDropoutSamples) return false;
  for (const { litres } of state.fuelHeld) count(litres);
  state.fuelHeld = [];
  return true;
}

function trackTrip(state: TrackState, point: TrackPoint, position: Position, settings: DetectionSettings, trips: DetectedTrip[]): void {
  if (state.trip) {
    state.trip.maxSpeed = Math.max(state.trip.maxSpeed, point.speed ?? 0);
    state.trip.driverTagId ??= point.driverTagId;
  }
  const byIgnition = settings.useIgnition && position.ignition !== null;
  if (byIgnition) trackTripByIgnition(state, point, settings, trips);
  else trackTripByMovement(state, point, settings, trips);
}

function trackTripByIgnition(state: TrackState, point: TrackPoint, settings: DetectionSettings, trips: DetectedTrip[]): void {
  if (state.trip) {
    if (!point.ignition) {
      closeTrip(state, point, settings, trips);
      state.ignitionOnAt = null;
    }
    return;
  }
  if (!point.ignition) {
    state.ignitionOnAt = null;
    return;
  }
  state.ignitionOnAt ??= point;
  const departed = (point.speed ?? 0) >= DEPARTURE_KMH || distanceKm(state.ignitionOnAt, point) >= DEPARTURE_KM;
  if (departed) openTrip(state, state.ignitionOnAt, point);
}

function trackTripByMovement(state: TrackState, point: TrackPoint, settings: DetectionSettings, trips: DetectedTrip[]): void {
  if (!state.trip && !leaveStop(state, point, settings)) return;
  const last = state.last;
  if (last && standing(point) && seconds(last.at, point.at) > settings.stopDwellS) point.arrivedAt = movedAt(last, point, 'after');
  state.dwell.push(point);
  // The window trails by stopDwellS, but keeps a standstill whole: its first point is where the trip ends. A point that
  // arrived during a silence has stood since it arrived (the device recording only while the engine runs).
  const old = (p: TrackPoint) => seconds(p.arrivedAt ?? p.at, point.at) >= settings.stopDwellS;
  // A window of standing points spread wider than the radius is a queue at walking pace, not a stop: it trails too.
  const standstill = () => state.dwell.every((p) => standing(p) && distanceKm(state.dwell[0] as TrackPoint, p) < settings.stopRadiusKm);
  while (state.dwell.length > 1 && old(state.dwell[1] as TrackPoint) && !standstill()) state.dwell.shift();
  const anchor = state.dwell[0] as TrackPoint;
  // Stop-and-go traffic moves on by more than the radius within the stop time: the window never settles.
  const settled = old(anchor) && state.dwell.every((p) => distanceKm(anchor, p) < settings.stopRadiusKm);
  if (settled) {
    const arrival = tripEnd(state, point);
    point.odometerKm = state.odometerKm;
    closeTrip(state, arrival, settings, trips);
    state.stop = { ...point, lat: arrival.lat, lng: arrival.lng };
  }
}

/** The first point of the window's last standing run: where the vehicle stands. */
function standingRunIn(dwell: readonly TrackPoint[]): number {
  let first = dwell.length - 1;
  while (first > 0 && standing(dwell[first - 1] as TrackPoint)) first--;
  return first;
}

/**
 * Where the vehicle arrived in a trailing window: the first point of its last standing run, not where the window
 * begins (up to 200 m before it). Reached after a silence, the vehicle arrived when its last movement got there, not
 * when the device woke up.
 */
function arrivalIn(dwell: readonly TrackPoint[]): TrackPoint {
  let first = standingRunIn(dwell);
  const arrival = dwell[first] as TrackPoint;
  if (arrival.arrivedAt) return { ...arrival, at: arrival.arrivedAt };
  // Without speed a point stands only once its implied speed has fallen: the vehicle was already at that spot before.
  const atTheSpot = (p: TrackPoint) => p.speed === null && distanceKm(arrival, p) < ARRIVAL_SPOT_KM;
  while (first > 0 && atTheSpot(dwell[first - 1] as TrackPoint)) first--;
  return dwell[first] as TrackPoint;
}

/**
 * A trip's end: where and when the vehicle arrived, with the odometer once it stands there. Without speed the last
 * metres lie inside the radius around the last counted point, which the vehicle never leaves: they count now, unless a
 * device odometer counted them.
 */
function tripEnd(state: TrackState, last: TrackPoint): TrackPoint {
  const arrival = state.dwell.length > 0 ? arrivalIn(state.dwell) : last;
  const spot = state.dwell.length > 0 ? (state.dwell[standingRunIn(state.dwell)] as TrackPoint) : last;
  const anchor = state.anchor;
  if (anchor && !state.odometerReading && anchor.at < spot.at) {
    state.odometerKm += beyondNoiseKm(distanceKm(anchor, spot), state.noise);
    state.anchor = { at: spot.at, lat: spot.lat, lng: spot.lng, pathKm: 0 };
  }
  return { ...arrival, odometerKm: state.odometerKm };
}

/**
 * Out of a stop (standing within the radius for the stop time): the trip starts at the stop's last standing point,
 * the first movement out of it. A halt inside the radius shorter than the stop time (a gate, a light, stop-and-go)
 * does not move the start; one as long as the stop time is a new stop.
 */
function leaveStop(state: TrackState, point: TrackPoint, settings: DetectionSettings): boolean {
  const stop = state.stop;
  if (!stop) {
    state.stop = point;
    return false;
  }
  const departure = state.departure ?? null;
  // without speed, only a fix that left the last counted one making progress is out of the stop: not a wandering error
  const movedOut = point.speed === null ? point.left === true : !point.still;
  const fromTheStopKm = distanceKm(stop, point);
  // The stop's spot is one fix: with its error and this fix's, two fixes of a parked receiver off by 30 m and drifting
  // 30 m more were 200 m apart often enough, two in a row, to open trips.
  const outOfTheStop = fromTheStopKm >= settings.stopRadiusKm + (STOP_NOISE_TIMES * noiseM(state.noise)) / 1000;
  // A fix out of the stop opens the trip once the next one is out too, on its side (nearer it than the stop): a fix
  // thrown out by an error comes back, and two thrown out one after the other rarely land together.
  const leaving = state.leaving ?? null;
  state.leaving = null;
  if (leaving && outOfTheStop && distanceKm(leaving, point) < fromTheStopKm) {
    openTrip(state, departure ?? departureFrom(stop, leaving, settings), leaving);
    point.odometerKm = state.odometerKm;
    (state.trip as OpenTrip).maxSpeed = Math.max((state.trip as OpenTrip).maxSpeed, point.speed ?? 0);
    state.dwell = [leaving];
    state.departure = null;
    state.halt = null;
    return true;
  }
  if (outOfTheStop && movedOut) {
    state.leaving = point;
    state.departure = departure ?? departureFrom(stop, point, settings);
    state.halt = null;
    return false;
  }
  if (!standing(point)) {
    state.departure = departure ?? departureFrom(stop, point, settings);
    state.halt = null;
    return false;
  }
  if (!departure) {
    // Still in the stop: it is remembered where it began, and as lasting until now. Without speed, a fix standing by
    // its implied speed from the spot may already be on its way (15 m in 5 s after minutes parked): the stop lasts only
    // while the fixes are at its spot, so the trip starts at the last of them, not 15 s into the drive.
    if (point.speed !== null || distanceKm(stop, point) < VERTEX_KM) state.stop = { ...point, lat: stop.lat, lng: stop.lng };
    return false;
  }
  // A fix out of the radius around the last counted one, waiting for the next to agree, may be an error: no halt there.
  const halt = state.halt ?? (state.anchor?.out?.at === point.at ? null : point);
  if (!halt) return false;
  state.halt = halt;
  if (seconds(halt.at, point.at) >= settings.stopDwellS) {
    state.stop = { ...point, lat: halt.lat, lng: halt.lng };
    state.departure = null;
    state.halt = null;
  }
  return false;
}

/** The trip's start: the stop's last point; where the device was silent longer than the stop time, when the vehicle set off. */
function departureFrom(stop: TrackPoint, moving: TrackPoint, settings: DetectionSettings): TrackPoint {
  if (seconds(stop.at, moving.at) <= settings.stopDwellS) return stop;
  return { ...stop, at: movedAt(stop, moving, 'before') };
}

/**
 * Across a long step with a standstill in it: the vehicle covered the step at its speed (or, without one, a town
 * pace) just after leaving `from` (`after`), or just before reaching `to` (`before`), in whole seconds.
 */
function movedAt(from: TrackPoint, to: TrackPoint, when: 'after' | 'before'): string {
  const speed = Math.max((when === 'after' ? from.speed : to.speed) ?? 0, TOWN_KMH);
  const stepS = Math.min(seconds(from.at, to.at), Math.ceil((distanceKm(from, to) / speed) * 3600));
  const ms = when === 'after' ? Date.parse(from.at) + stepS * 1000 : Date.parse(to.at) - stepS * 1000;
  return new Date(ms).toISOString();
}

const standing = (point: TrackPoint): boolean => point.standing === true;

function openTrip(state: TrackState, start: TrackPoint, current: TrackPoint): void {
  // a device odometer counted the departure already
  const departure = state.odometerReading ? [] : (state.unsettled ?? []).filter(({ at }) => at > start.at);
  const departedKm = departure.reduce((sum, { km }) => sum + km, 0);
  state.unsettled = [];
  state.odometerKm += departedKm;
  current.odometerKm = state.odometerKm;
  state.trip = { start, maxSpeed: Math.max(start.speed ?? 0, current.speed ?? 0), driverTagId: start.driverTagId ?? current.driverTagId };
}

function closeTrip(state: TrackState, end: TrackPoint, settings: DetectionSettings, trips: DetectedTrip[]): void {
  const trip = state.trip as OpenTrip;
  state.trip = null;
  state.stop = end;
  state.dwell = [];
  state.departure = null;
  state.halt = null;
  const distance = end.odometerKm - trip.start.odometerKm;
  const duration = seconds(trip.start.at, end.at);
  if (distance < settings.minTripDistanceKm || duration < settings.minTripDurationS) return;
  state.lastTripStart = trip.start.at;
  trips.push({
    startTime: trip.start.at,
    stopTime: end.at,
    odometerAtStart: trip.start.odometerKm,
    distanceKm: distance,
    durationS: duration,
    maxSpeed: trip.maxSpeed,
    fuelStart: trip.start.fuel,
    fuelEnd: end.fuel,
    startLat: trip.start.lat,
    startLng: trip.start.lng,
    stopLat: end.lat,
    stopLng: end.lng,
    driverTagId: trip.driverTagId,
  });
}

function trackFuel(
  state: TrackState,
  point: TrackPoint,
  profile: VehicleProfile,
  settings: DetectionSettings,
  fills: DetectedFill[],
): void {
  const threshold = fillThreshold(profile, settings);
  // without a speed reading, standing by displacement over time
  const stationary = point.speed === null ? standing(point) : point.speed < settings.fillMaxSpeedKmh;
  if (!stationary) {
    if (state.parked?.rise) settleFill(state, state.parked.rise, threshold, fills);
    state.parked = null;
    return;
  }
  if (point.fuel === null) return;
  const level: Level = { ...point, fuel: point.fuel };
  const parked = state.parked;
  if (!parked) {
    state.parked = standingAt(level);
    return;
  }
  // Steps smaller than this are the sensor's noise after the median filter.
  const margin = threshold / 4;
  const raw = point.fuelReading ?? level.fuel;
  const rise = parked.rise;
  if (rise) {
    if (level.fuel >= rise.settled + margin) {
      rise.lastRiseAt = level.at;
      rise.settled = level.fuel;
      rise.settledSamples = 1;
    } else {
      // Readings average down better than their medians; a spike still counts as the median.
      const sample = Math.abs(raw - level.fuel) < threshold / 2 ? raw : level.fuel;
      rise.settledSamples += 1;
      rise.settled += (sample - rise.settled) / rise.settledSamples;
    }
    if (seconds(rise.lastRiseAt, level.at) > settings.fillMergeS) {
      settleFill(state, rise, threshold, fills);
      state.parked = { ...standingAt(level), base: rise.settled, baseSamples: rise.settledSamples };
    }
    return;
  }
  if (level.fuel - parked.base >= threshold) {
    parked.rise = { before: { ...parked.before, fuel: parked.base }, lastRiseAt: level.at, settled: level.fuel, settledSamples: 1 };
  } else if (level.fuel <= parked.base + margin) {
    // A running mean at first, then a moving one (over twice the filter window) that follows idle burn.
    parked.baseSamples += 1;
    parked.base += (level.fuel - parked.base) / Math.min(parked.baseSamples, 2 * settings.fuelMedianWindow);
    parked.aboveSince = null;
    // The filter lags a rise by half its window; the raw sample shows where it began (a spike only keeps the earlier point).
    if (raw < parked.base + threshold / 2) parked.before = level;
  } else {
    parked.aboveSince ??= level.at;
    // A level that stays up without growing into a fill is the new standing level (a sensor step, not fuel).
    if (seconds(parked.aboveSince, level.at) > settings.fillMergeS) state.parked = standingAt(level);
  }
}

const standingAt = (level: Level): Parked => ({ base: level.fuel, baseSamples: 1, before: level, aboveSince: null, rise: null });

/** A rise is a fill when the level it settles at is still threshold above where it began (spikes that passed the filter fall back). */
function settleFill(state: TrackState, rise: NonNullable<Parked['rise']>, threshold: number, fills: DetectedFill[]): void {
  if (rise.settled - rise.before.fuel >= threshold) fills.push(closeFill(state, rise));
}

function closeFill(state: TrackState, rise: NonNullable<Parked['rise']>): DetectedFill {
  const { before } = rise;
  const previous = state.lastFill;
  const fill: DetectedFill = {
    at: before.at,
    latitude: before.lat,
    longitude: before.lng,
    levelBefore: before.fuel,
    levelAfter: rise.settled,
    fillQty: rise.settled - before.fuel,
    odometerKm: before.odometerKm,
    engineHours: before.engineHours,
    driverTagId: before.driverTagId,
    precedingTripStart: state.lastTripStart,
    sincePreviousFill: previous
      ? {
          distanceKm: before.odometerKm - previous.odometerKm,
          durationS:
            before.engineHours !== null && previous.engineHours !== null ? (before.engineHours - previous.engineHours) * 3600 : null,
          fuelUsed: Math.max(0, previous.levelAfter - before.fuel),
        }
      : null,
  };
  state.lastFill = { odometerKm: before.odometerKm, engineHours: before.engineHours, levelAfter: rise.settled };
  return fill;
}
