/**
 * The seven real enviroCar drives (test/fixtures/envirocar-drives.json; contains enviroCar data, available under the
 * Open Database License (ODbL) 1.0), resampled to any rate, and the truth of a drive by a rule of its own: what the
 * detector tests and the pipeline tests hold detection to.
 */
import { readFileSync } from 'node:fs';
import { distanceKm } from '../../shared/domain/geo.ts';
import { DEFAULT_DETECTION } from '../../shared/domain/tracking/settings.ts';
import { driftedGpsError, gaussian, NO_GPS_ERROR } from '../../simulator/random.ts';
import { displaced } from '../../simulator/roads.ts';
import { aPositionRecord } from './position-builders.ts';

export interface Fix {
  at: number;
  lat: number;
  lng: number;
  speed: number | null;
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/envirocar-drives.json', import.meta.url), 'utf8')) as {
  drives: Record<string, Array<[string, number, number, number | null]>>;
};

export const realDrives = Object.entries(fixture.drives).map(([name, rows]) => ({
  name,
  fixes: rows.map(([at, lng, lat, speed]): Fix => ({ at: Date.parse(at), lat, lng, speed })),
}));

const between = (a: number | null, b: number | null, share: number) => (a === null || b === null ? a : a + (b - a) * share);

/** Every everyS seconds: the recorded fix then (slower), or one on the straight line between two fixes (faster). */
export function atRate(fixes: readonly Fix[], everyS: number): Fix[] {
  const first = fixes[0] as Fix;
  const last = fixes.at(-1) as Fix;
  const out: Fix[] = [];
  let i = 0;
  for (let t = first.at; t <= last.at; t += everyS * 1000) {
    while ((fixes[i + 1] as Fix | undefined) && (fixes[i + 1] as Fix).at <= t) i++;
    const a = fixes[i] as Fix;
    const b = fixes[i + 1] ?? a;
    const share = b.at === a.at ? 0 : (t - a.at) / (b.at - a.at);
    out.push({
      at: t,
      lat: a.lat + (b.lat - a.lat) * share,
      lng: a.lng + (b.lng - a.lng) * share,
      speed: between(a.speed, b.speed, share),
    });
  }
  return out;
}

/** The drive, then parked where it ended for `seconds` at the drive's own rate: its last trip has ended. */
export function thenParked(fixes: readonly Fix[], seconds: number): Fix[] {
  const last = fixes.at(-1) as Fix;
  const everyMs = Math.max(1000, Math.round((last.at - (fixes[0] as Fix).at) / Math.max(1, fixes.length - 1) / 1000) * 1000);
  const parked = Array.from({ length: Math.ceil((seconds * 1000) / everyMs) }, (_, n) => ({
    ...last,
    at: last.at + (n + 1) * everyMs,
    speed: last.speed === null ? null : 0,
  }));
  return [...fixes, ...parked];
}

/** GPS error of about `metres` on every fix, drifting as the simulator's does (simulator/random.ts). */
export function withDriftingError(random: () => number, metres: number): (fix: Fix) => Fix {
  let error = NO_GPS_ERROR;
  return (fix) => {
    error = driftedGpsError(random, error, fix.at / 1000, metres);
    return { ...fix, ...displaced(fix, error) };
  };
}

/**
 * GPS error of `metres` per axis on every fix, independent from fix to fix: a receiver whose fixes are seconds apart
 * (its error decorrelates within seconds), or a floating-car feed that thins a track, against the drifting error above.
 */
export function withIndependentError(random: () => number, metres: number): (fix: Fix) => Fix {
  return (fix) => ({ ...fix, ...displaced(fix, { northM: gaussian(random) * metres, eastM: gaussian(random) * metres }) });
}

/**
 * A share of the fixes (after the first) thrown 100–300 m off in a random direction, each on its own, as a receiver's
 * multipath throws one now and then: the outlier rule's case (docs/positions-pipeline.md, "Outliers").
 */
export function withThrownFixes(random: () => number, share: number): (fix: Fix, n: number) => Fix {
  return (fix, n) => {
    if (n === 0 || random() >= share) return fix;
    const [metres, bearing] = [100 + random() * 200, random() * 2 * Math.PI];
    return { ...fix, ...displaced(fix, { northM: metres * Math.cos(bearing), eastM: metres * Math.sin(bearing) }) };
  };
}

/** km/h of a town drive: what a silence must leave beside the stop time to have held a stop the vehicle was not seen at. */
const TOWN_KMH = 30;

/**
 * The truth, by its own rule: a stop is a run of fixes within the stop radius of its first for at least the stop
 * time, a silence longer than the gap rule, or one that leaves the stop time beside the step at a town pace, after
 * which the vehicle is seen moving on out of the radius (an unseen stop: its step belongs to no trip); the distance is
 * the path, less steps slower than a walking pace (jitter); a trip is a leg between stops of at least the shortest
 * trip's distance.
 */
export function truthOf(fixes: readonly Fix[], settings = DEFAULT_DETECTION): { distanceKm: number; trips: number } {
  const stopped = fixes.map(() => false);
  for (let i = 0; i < fixes.length; i++) {
    let j = i;
    while (j + 1 < fixes.length && distanceKm(fixes[i] as Fix, fixes[j + 1] as Fix) < settings.stopRadiusKm) j++;
    if (((fixes[j] as Fix).at - (fixes[i] as Fix).at) / 1000 >= settings.stopDwellS) for (let k = i; k <= j; k++) stopped[k] = true;
  }
  let total = 0;
  let trips = 0;
  let legKm = 0;
  for (let i = 1; i < fixes.length; i++) {
    const a = fixes[i - 1] as Fix;
    const b = fixes[i] as Fix;
    const km = distanceKm(a, b);
    const kmh = km / ((b.at - a.at) / 3_600_000);
    const silentS = (b.at - a.at) / 1000;
    const unseenStop =
      silentS > settings.maxGapS || (km >= settings.stopRadiusKm && kmh >= 3 && silentS - (km / TOWN_KMH) * 3600 >= settings.stopDwellS);
    if (kmh >= 3 && !unseenStop) legKm += km;
    if (stopped[i] || unseenStop || i === fixes.length - 1) {
      if (legKm >= settings.minTripDistanceKm) trips++;
      total += legKm;
      legKm = 0;
    }
  }
  return { distanceKm: total, trips };
}

/** The fixes as a device without ignition wiring sends them, with its speed readings or none. */
export const recordsOf = (imei: string, fixes: readonly Fix[], withSpeed: boolean) =>
  fixes.map((fix) =>
    aPositionRecord(imei, new Date(fix.at).toISOString(), {
      latitude: fix.lat,
      longitude: fix.lng,
      speed: withSpeed ? fix.speed : null,
      ignition: null,
      fuel_raw: null,
    }),
  );

/** A day of 1 Hz points: the longest real drive at 1 Hz, parked an hour with jitter after each time it is driven, for 24 hours. */
export function dayAt1Hz(start = '2026-11-01T00:00:00Z'): Fix[] {
  const drive = atRate((realDrives.find(({ name }) => name.startsWith('opel')) as (typeof realDrives)[number]).fixes, 1);
  const day: Fix[] = [];
  let t = Date.parse(start);
  while (day.length < 86_400) {
    const from = t;
    for (const fix of drive) day.push({ ...fix, at: from + (fix.at - (drive[0] as Fix).at) });
    t = (day.at(-1) as Fix).at + 1000;
    const end = day.at(-1) as Fix;
    for (let s = 0; s < 3600; s++, t += 1000) day.push({ ...end, at: t, lat: end.lat + Math.sin(s) * 0.00005, speed: 0 });
  }
  return day.slice(0, 86_400);
}
