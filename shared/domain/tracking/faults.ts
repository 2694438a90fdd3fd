/**
 * The device-fault rules (docs/positions-pipeline.md, "Device faults"): pure functions the pipeline and the
 * detector apply, so a tracker's bad clock, fix or sensor never becomes a vehicle's data.
 * - set aside before anything else (the dead-letter prefix): points in the future or too late against their arrival;
 * - set aside by the pipeline against the history: a second fix of an instant already taken, at another place;
 * - kept in the history but ignored by detection and the live record: fixes at 0,0, fixes marked invalid, jumps,
 *   stale fixes (an old position resent), outliers (a fix thrown off the way);
 * - readings ignored, the point kept: fuel dropouts, odometer resets and impossible odometer steps;
 * - readings dropped where the record is read (out of range, too long, not a number): the point kept without them.
 */
import { distanceKm, type LatLng } from '../geo.ts';
import { instantMs } from '../time.ts';
import type { Position } from './position.ts';
import type { DetectionSettings } from './settings.ts';

export const SET_ASIDE_FAULTS = ['in the future', 'too late', 'same second'] as const;
export const POINT_FAULTS = ['zero fix', 'invalid fix', 'speed jump', 'stale fix', 'outlier'] as const;
export const READING_FAULTS = ['fuel dropout', 'odometer reset', 'odometer jump', 'dropped reading'] as const;
export const FAULTS = [...SET_ASIDE_FAULTS, ...POINT_FAULTS, ...READING_FAULTS] as const;

export type SetAsideFault = (typeof SET_ASIDE_FAULTS)[number];
export type PointFault = (typeof POINT_FAULTS)[number];
export type Fault = (typeof FAULTS)[number];

/** A point or reading detection did not count: when, why, and the point whose arrival showed it (a dropout is known on its return). */
export interface IgnoredReading {
  at: string;
  fault: Exclude<Fault, SetAsideFault>;
  decidedAt: string;
}

/** How far back GPS week rollover throws a clock: 1024 weeks. Always beyond the lateness window, so too late. */
export const GPS_ROLLOVER_MS = 1024 * 7 * 86_400_000;

/**
 * Against the instant the record arrived, never against another point's claim: a point later than its arrival
 * plus the tolerance is in the future; one older than the lateness window (GPS week rollover included) is too late.
 */
export function arrivalFault(gpsAt: string, arrivedAtMs: number, futureToleranceS: number, lateWindowMs: number): SetAsideFault | null {
  const at = Date.parse(gpsAt);
  if (at > arrivedAtMs + futureToleranceS * 1000) return 'in the future';
  if (at < arrivedAtMs - lateWindowMs) return 'too late';
  return null;
}

/** A fix the device itself gives away: 0,0 (no fix yet), or marked invalid, or from no satellites. */
export function fixFault(position: Pick<Position, 'latitude' | 'longitude' | 'valid' | 'satellites'>): PointFault | null {
  if (position.latitude === 0 && position.longitude === 0) return 'zero fix';
  if (position.valid === false || position.satellites === 0) return 'invalid fix';
  return null;
}

interface Fix extends LatLng {
  at: string;
  /**
   * `at` in epoch milliseconds, where the fix's maker has it: pointFaults reads each of a day's instants once, where
   * looking each up again (several times a fix) was a third of its time. Never stored: detection's fixes go without.
   */
  ms?: number;
}

const msOf = (fix: Fix): number => fix.ms ?? instantMs(fix.at);

/** km/h needed to get from one fix to the other (at least one second apart: GPS times are whole seconds). */
export function impliedSpeedKmh(from: Fix, to: Fix): number {
  const hours = Math.max(1, Math.abs(msOf(to) - msOf(from)) / 1000) / 3600;
  return distanceKm(from, to) / hours;
}

/** GPS times are whole seconds: fixes within one second are one instant (sub-second parts are a device's clock noise). */
export const secondOf = (at: string): string => at.slice(0, 19);

/** A fix this far from the last one, at a place just left, steps back along the path (parked jitter never does). */
const STEP_BACK_KM = 0.025;
/** How many counted fixes, and how old, are remembered to know a resent one. */
const RECENT_FIXES = 60;
const RECENT_S = 600;
/** Where the window of recent fixes before `fix` starts, in epoch milliseconds. */
const recentSinceMs = (fix: Fix): number => msOf(fix) - RECENT_S * 1000;

/**
 * A stale fix: the vehicle is back at exactly (to the last decimal) a position it passed through lately, behind it on
 * its way (against its heading from the fix before its last one to its last one), and away from its last one. A real
 * vehicle never repeats a fix to the centimetre while moving on; a device resending an old position does. Counted, it
 * would add the way back and forth again and could look like a stop. Only fixes the vehicle passed through count
 * (reached and left by steps of STEP_BACK_KM or more), never one where it stood, and only while it heads away from
 * them: a vehicle that comes back to its bay, or turns round on a road its device rounds to 4 decimals, is at exactly
 * an earlier fix, and is really there.
 */
export function staleFix(last: Fix | null, memory: PassedFixes, fix: Fix): boolean {
  if (!last || !memory.previous || distanceKm(last, fix) < STEP_BACK_KM || !behind(memory.previous, last, fix)) return false;
  const sinceMs = recentSinceMs(fix);
  return memory.passed.some(
    (earlier) => msOf(earlier) >= sinceMs && earlier.at < last.at && earlier.lat === fix.lat && earlier.lng === fix.lng,
  );
}

/** Whether `fix` lies behind `to` for a vehicle that came from `from` (more than a right angle off its heading). */
function behind(from: LatLng, to: LatLng, fix: LatLng): boolean {
  const east = Math.cos((to.lat * Math.PI) / 180);
  return (to.lat - from.lat) * (fix.lat - to.lat) + (to.lng - from.lng) * (fix.lng - to.lng) * east * east < 0;
}

/** An outlier is at least this far (km) from the last counted fix: nearer, it adds little even out and back. */
const OUTLIER_KM = 0.08;
/** ...and farther than this many times what the vehicle's pace covers, speeding up at OUTLIER_SPEED_UP_MS2 besides. */
const OUTLIER_PACE_TIMES = 1.2;
const OUTLIER_SPEED_UP_MS2 = 1;
/** Where both fixes read a speed, the mean of the two covers the step with this much to spare (km), speeding up included. */
const OUTLIER_SPEED_SLACK_KM = 0.04;
/** Steps longer than this (s) say too little of the pace: a town drive's step at 30–60 s may be 0 or 800 m. */
const OUTLIER_STEP_S = 20;

/**
 * An outlier: a fix farther from the last counted one than the vehicle could be by then. Where both read a speed, the
 * mean of the two speeds, times OUTLIER_PACE_TIMES, covers the step (a receiver's speed comes from Doppler, not from
 * its position, and stays true when the position is thrown); otherwise its pace since the fix before, times
 * OUTLIER_PACE_TIMES, speeding up briskly besides. A receiver throws a fix 100–300 m off now and then (multipath, a
 * reflection) and the jump rule never sees it: counted out and back, 1 % of such fixes made real drives at 5–10 s 5–9 %
 * long. It is only a candidate, held like a resent fix: the next fix decides (resentFixes), so a vehicle that did go
 * there (a departure, a turn) counts, one fix later.
 */
export function outlierFix(previous: Fix | null, last: Fix | null, fix: Fix, speeds: { last: number | null; fix: number | null }): boolean {
  if (!previous || !last) return false;
  const stepS = (msOf(fix) - msOf(last)) / 1000;
  if (stepS > OUTLIER_STEP_S || (msOf(last) - msOf(previous)) / 1000 > OUTLIER_STEP_S) return false;
  const hours = stepS / 3600;
  const reachKm =
    speeds.last !== null && speeds.fix !== null
      ? OUTLIER_PACE_TIMES * ((speeds.last + speeds.fix) / 2) * hours + OUTLIER_SPEED_SLACK_KM
      : OUTLIER_PACE_TIMES * Math.max(impliedSpeedKmh(previous, last), speeds.fix ?? 0) * hours +
        (OUTLIER_SPEED_UP_MS2 * stepS * stepS) / 2 / 1000;
  const awayKm = distanceKm(last, fix);
  return awayKm >= OUTLIER_KM && awayKm > reachKm;
}

/** The most fixes held as maybe resent: a longer run is decided resent without waiting (it bounds the state). */
export const MAX_HELD = RECENT_FIXES;

/**
 * Held fixes at `spot` were resent when the vehicle, next seen at `next`, is nearer its last counted fix than the spot
 * (it went on from there); nearer the spot, it really was there (it turned round, or stood at a bay it had passed).
 */
export function resentFixes(last: LatLng, spot: LatLng, next: LatLng): boolean {
  return distanceKm(last, next) <= distanceKm(spot, next);
}

/**
 * What staleFix remembers: the fixes passed through (the newest RECENT_FIXES of RECENT_S seconds), the last counted one
 * when reached by a long step, and the one counted before it (the vehicle's heading).
 */
export interface PassedFixes {
  passed: Fix[];
  reached: Fix | null;
  previous: Fix | null;
}

export const NO_PASSED_FIXES: PassedFixes = { passed: [], reached: null, previous: null };

/** After counting `fix` from `last`: the fix reached before it is passed through when the vehicle leaves it by a long step too. */
export function rememberFix(memory: PassedFixes, last: Fix | null, fix: Fix): PassedFixes {
  const far = last !== null && distanceKm(last, fix) >= STEP_BACK_KM;
  const passed = far && memory.reached ? [...memory.passed, memory.reached] : memory.passed;
  return { passed: recentOf(passed, fix), reached: far ? fix : null, previous: last };
}

/**
 * The newest RECENT_FIXES of the fixes passed within RECENT_S seconds before `at`: the same list when none is left out
 * (no copy per point: getPositions checks a day of them per call), never a list changed in place. Fixes are counted in
 * time order (the detector sorts its points, getPositions reads them sorted), so the list is too, and the window starts
 * at its first recent fix: found from the oldest end, mostly at once, where checking every fix cost a day's check half its time.
 */
function recentOf(passed: Fix[], fix: Fix): Fix[] {
  if (passed.length === 0) return passed;
  const sinceMs = recentSinceMs(fix);
  const first = passed.findIndex((earlier) => msOf(earlier) >= sinceMs);
  if (first === 0 && passed.length <= RECENT_FIXES) return passed;
  return first < 0 ? [] : passed.slice(Math.max(first, passed.length - RECENT_FIXES));
}

/**
 * Same-second fixes among arrived points and the history: the earliest of an instant is kept, whichever arrives first
 * (one arriving after a later fix of its second takes its place: the history is read earliest first, so the later one
 * is never read again). One arriving after an earlier fix of its second at the same place is the same fix again (a
 * replay); at another place it is a fault (a stuck clock, two fixes given one time): set aside, since the history
 * holds one point an instant.
 */
export function sameSecondFaults<P extends { gps_datetime: string; latitude: number; longitude: number }>(
  known: readonly P[],
  arrived: readonly P[],
): { kept: P[]; elsewhere: P[] } {
  const taken = earliestOfEachSecond(known);
  const kept: P[] = [];
  const elsewhere: P[] = [];
  for (const position of arrived) {
    const first = taken.get(secondOf(position.gps_datetime));
    if (!first || position.gps_datetime < first.gps_datetime) {
      taken.set(secondOf(position.gps_datetime), position);
      kept.push(position);
    } else if (distanceKm(latLng(first), latLng(position)) >= SAME_PLACE_KM) elsewhere.push(position);
  }
  return { kept, elsewhere };
}

/** The earliest point of each second among `points`, by second. */
export function earliestOfEachSecond<P extends { gps_datetime: string }>(points: readonly P[]): Map<string, P> {
  const earliest = new Map<string, P>();
  for (const point of points) {
    const first = earliest.get(secondOf(point.gps_datetime));
    if (!first || point.gps_datetime < first.gps_datetime) earliest.set(secondOf(point.gps_datetime), point);
  }
  return earliest;
}

/** Same-second fixes closer than this are one position read twice (GPS noise between two reports of one fix). */
const SAME_PLACE_KM = 0.01;
const latLng = (position: { latitude: number; longitude: number }) => ({ lat: position.latitude, lng: position.longitude });

/** Consecutive far-off fixes that agree with each other this often are where the vehicle really is (moved while silent). */
export const RELOCATION_FIXES = 3;

/**
 * A fix reached from the last counted one faster than the vehicle can go is a jump, unless the fixes since agree
 * with it: `run` is the jumps just before it, and a run of RELOCATION_FIXES agreeing fixes is a relocation.
 */
export function jumpVerdict(
  last: Fix | null,
  run: readonly Fix[],
  fix: Fix,
  maxSpeedKmh: number,
): { verdict: 'counted' | 'relocated' } | { verdict: 'jump'; run: Fix[] } {
  if (!last || impliedSpeedKmh(last, fix) <= maxSpeedKmh) return { verdict: 'counted' };
  const previous = run.at(-1);
  const agreeing = previous && impliedSpeedKmh(previous, fix) <= maxSpeedKmh ? [...run, fix] : [fix];
  return agreeing.length >= RELOCATION_FIXES ? { verdict: 'relocated' } : { verdict: 'jump', run: agreeing };
}

/** A reading no tank can hold: 0 (the sensor's dropout value), below it, or beyond capacity with a margin. */
export function fuelReadingFault(litres: number, capacity: number | null, settings: DetectionSettings): 'fuel dropout' | null {
  if (litres <= 0) return 'fuel dropout';
  if (capacity !== null && litres > (capacity * settings.fuelMaxPercentOfCapacity) / 100) return 'fuel dropout';
  return null;
}

export interface OdometerReading {
  km: number;
  at: string;
}

/**
 * How far the vehicle went by the device odometer since its previous reading. The odometer counts as deltas: a fall
 * (a replaced or reset device) or a step faster than maxSpeedKmh allows starts a new base, and the step counts
 * `fallbackKm` (the distance the positions give) instead.
 */
export function odometerStep(
  previous: OdometerReading | null,
  reading: OdometerReading,
  fallbackKm: number,
  settings: DetectionSettings,
): { km: number; fault: 'odometer reset' | 'odometer jump' | null } {
  if (!previous) return { km: 0, fault: null };
  const delta = reading.km - previous.km;
  if (delta < 0) return { km: fallbackKm, fault: 'odometer reset' };
  const hours = Math.max(0, Date.parse(reading.at) - Date.parse(previous.at)) / 3_600_000;
  if (delta > settings.maxSpeedKmh * hours + settings.odometerSlackKm) return { km: fallbackKm, fault: 'odometer jump' };
  return { km: delta, fault: null };
}

/**
 * Which fixes of a stretch of history detection ignores, and why (getPositions marks them): the fix rules, then the
 * jump rule from the last counted fix. Detection decides the same way from its checkpoint; a stretch starts fresh.
 */
export function pointFaults(positions: readonly Position[], maxSpeedKmh: number): Array<PointFault | null> {
  let last: Fix | null = null;
  let run: Fix[] = [];
  let memory = NO_PASSED_FIXES;
  let held: number[] = [];
  let lastSpeed: number | null = null;
  const faults: Array<PointFault | null> = positions.map(() => null);
  const fixes: Fix[] = positions.map((position) => ({
    at: position.gps_datetime,
    lat: position.latitude,
    lng: position.longitude,
    ms: Date.parse(position.gps_datetime),
  }));
  const fixAt = (n: number): Fix => fixes[n] as Fix;
  const counted = (n: number) => {
    const fix = fixAt(n);
    memory = rememberFix(memory, last, fix);
    last = fix;
    lastSpeed = (positions[n] as Position).speed;
    run = [];
  };
  // the held fixes count after all when the next fix is nearer them than the last counted one
  const settle = (next: Fix) => {
    const spot = held.length > 0 ? fixAt(held.at(-1) as number) : null;
    if (spot && last && !resentFixes(last, spot, next))
      for (const h of held) {
        faults[h] = null;
        counted(h);
      }
    held = [];
  };
  positions.forEach((position, n) => {
    const fix = fixAt(n);
    const bad = fixFault(position);
    if (bad) {
      faults[n] = bad;
      return;
    }
    if (held.length > 0 && faults[held[0] as number] === 'outlier') settle(fix);
    if (staleFix(last, memory, fix) && held.length < MAX_HELD) {
      held.push(n);
      faults[n] = 'stale fix';
      return;
    }
    settle(fix);
    const jump = jumpVerdict(last, run, fix, maxSpeedKmh);
    if (jump.verdict === 'jump') {
      run = jump.run;
      faults[n] = 'speed jump';
      return;
    }
    if (jump.verdict === 'counted' && outlierFix(memory.previous, last, fix, { last: lastSpeed, fix: position.speed })) {
      held = [n];
      faults[n] = 'outlier';
      return;
    }
    counted(n);
  });
  return faults;
}
