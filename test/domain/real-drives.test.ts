/**
 * Real recorded drives through the detector, with and without speed, at their own rate and others, against a truth
 * computed here by a rule of its own. Contains enviroCar data, available under the Open Database License (ODbL) 1.0
 * (test/fixtures/envirocar-drives.json).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../shared/domain/geo.ts';
import { detect, initialTrackState, type TrackState, type VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { aPositionRecord, positionOf } from '../support/position-builders.ts';

const DISTANCE_TOLERANCE = 0.02;
const IMEI = '356307042441013';
const settings = detectionSettings({ useIgnition: false });
const profile: VehicleProfile = { odometerAtStartKm: 0, startHours: null, fuelCapacity: null, fuelFactor: 1 };

interface Fix {
  at: number;
  lat: number;
  lng: number;
  speed: number | null;
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/envirocar-drives.json', import.meta.url), 'utf8')) as {
  drives: Record<string, Array<[string, number, number, number | null]>>;
};
const drives = Object.entries(fixture.drives).map(([name, rows]) => ({
  name,
  fixes: rows.map(([at, lng, lat, speed]): Fix => ({ at: Date.parse(at), lat, lng, speed })),
}));

const between = (a: number | null, b: number | null, share: number) => (a === null || b === null ? a : a + (b - a) * share);

/** Every everyS seconds: the recorded fix then (slower), or one on the straight line between two fixes (faster). */
function atRate(fixes: readonly Fix[], everyS: number): Fix[] {
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

/**
 * The truth, by its own rule: a stop is a run of fixes within the stop radius of its first for at least the stop
 * time; the distance is the path, less steps slower than a walking pace (jitter).
 */
function truthOf(fixes: readonly Fix[]): { distanceKm: number; trips: number } {
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
    if (km / ((b.at - a.at) / 3_600_000) >= 3) legKm += km;
    if (stopped[i] || i === fixes.length - 1) {
      if (legKm >= settings.minTripDistanceKm) trips++;
      total += legKm;
      legKm = 0;
    }
  }
  return { distanceKm: total, trips };
}

const positionsOf = (fixes: readonly Fix[], withSpeed: boolean) =>
  fixes.map((fix) =>
    positionOf(
      aPositionRecord(IMEI, new Date(fix.at).toISOString(), {
        latitude: fix.lat,
        longitude: fix.lng,
        speed: withSpeed ? fix.speed : null,
        ignition: null,
        fuel_raw: null,
      }),
    ),
  );

function detected(fixes: readonly Fix[], withSpeed: boolean) {
  const positions = positionsOf(fixes, withSpeed);
  const { state, trips } = detect(initialTrackState(profile), positions, profile, settings);
  // A drive's last trip is still open at the end of its recording.
  return { distanceKm: state.odometerKm, trips: trips.length + (state.trip ? 1 : 0), state };
}

const rateOf = (everyS: number): string => (everyS ? `at ${everyS} s` : 'at its own rate');

describe('real drives', () => {
  for (const { name, fixes } of drives)
    for (const everyS of [0, 1, 30, 60, 120])
      for (const withSpeed of [true, false])
        it(`measures ${name} ${rateOf(everyS)} ${withSpeed ? 'with' : 'without'} speed within 2 % of its path, with its trips`, () => {
          // Prepare
          const reported = everyS ? atRate(fixes, everyS) : fixes;
          const truth = truthOf(reported);

          // Act
          const outcome = detected(reported, withSpeed);

          // Assess
          expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
          expect(outcome.trips).toBe(truth.trips);
        });
});

describe('state at 1 Hz', () => {
  const largestItem = (states: TrackState[]) => Math.max(...states.map((state) => Buffer.byteLength(JSON.stringify(state))));

  for (const withSpeed of [true, false])
    it(`stays small over a day of 1 Hz points ${withSpeed ? 'with' : 'without'} speed, parked and moving`, () => {
      // Prepare: the longest real drive at 1 Hz, parked an hour with jitter after each of its drives, for 24 hours.
      const drive = atRate((drives.find(({ name }) => name.startsWith('opel')) as (typeof drives)[number]).fixes, 1);
      const day: Fix[] = [];
      let t = Date.parse('2026-11-01T00:00:00Z');
      while (day.length < 86_400) {
        const start = t;
        for (const fix of drive) day.push({ ...fix, at: start + (fix.at - (drive[0] as Fix).at) });
        t = (day.at(-1) as Fix).at + 1000;
        const end = day.at(-1) as Fix;
        for (let s = 0; s < 3600; s++, t += 1000) day.push({ ...end, at: t, lat: end.lat + Math.sin(s) * 0.00005, speed: 0 });
      }

      // Act: batches of a minute, as a stream would bring them
      let state = initialTrackState(profile);
      const states: TrackState[] = [];
      for (let i = 0; i < day.length; i += 60) {
        const batch = positionsOf(day.slice(i, i + 60), withSpeed);
        state = detect(state, batch, profile, settings).state;
        states.push(state);
      }

      // Assess
      const largest = largestItem(states);
      console.log(`largest track state over a day at 1 Hz ${withSpeed ? 'with' : 'without'} speed: ${largest} bytes`);
      expect(largest).toBeLessThan(64 * 1024);
    });
});
