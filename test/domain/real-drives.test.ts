/**
 * Real recorded drives through the detector, with and without speed, at their own rate and others, against a truth
 * computed by a rule of its own (test/support/real-drives.ts). Contains enviroCar data, available under the Open
 * Database License (ODbL) 1.0 (test/fixtures/envirocar-drives.json).
 */
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../shared/domain/geo.ts';
import { detect, initialTrackState, type TrackState, type VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { hash, prng } from '../../simulator/random.ts';
import { positionOf } from '../support/position-builders.ts';
import {
  atRate,
  dayAt1Hz,
  realDrives as drives,
  type Fix,
  recordsOf,
  thenParked,
  truthOf,
  withDriftingError,
  withIndependentError,
} from '../support/real-drives.ts';

const DISTANCE_TOLERANCE = 0.02;
const IMEI = '356307042441013';
const settings = detectionSettings({ useIgnition: false });
const profile: VehicleProfile = { odometerAtStartKm: 0, startHours: null, fuelCapacity: null, fuelFactor: 1 };

const positionsOf = (fixes: readonly Fix[], withSpeed: boolean) => recordsOf(IMEI, fixes, withSpeed).map(positionOf);

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

describe('real drives at any rate', () => {
  for (const { name, fixes } of drives)
    for (const withSpeed of [true, false]) {
      const speed = withSpeed ? 'with' : 'without';
      for (const everyS of [2, 5, 10, 15, 90])
        for (const parked of [true, false])
          it(`measures ${name} at ${everyS} s ${speed} speed, ${parked ? 'then parked' : 'still driving'}, within 2 % of its path`, () => {
            // Prepare
            const reported = atRate(fixes, everyS);
            const fed = parked ? thenParked(reported, 600) : reported;

            // Act
            const outcome = detected(fed, withSpeed);

            // Assess
            const truth = truthOf(fed);
            expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
            expect(outcome.trips).toBe(truth.trips);
          });

      it(`measures ${name} reported every 2 to 15 s at random ${speed} speed within 2 % of its path`, () => {
        // Prepare: a fix kept every 2 to 15 s, as a tracker's adaptive rate sends them
        const random = prng(hash(name));
        const dense = atRate(fixes, 1);
        const reported = dense.filter((_, n) => n === 0 || random() < 1 / 8);

        // Act
        const outcome = detected(reported, withSpeed);

        // Assess
        const truth = truthOf(reported);
        expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
        expect(outcome.trips).toBe(truth.trips);
      });
    }

  for (const { name, fixes } of drives)
    it(`measures ${name} at 1 s without speed within 2 % of its path when GPS error drifts by metres`, () => {
      // Prepare: the drive at 1 s, then parked, with a slowly drifting error of about 3 m on every fix
      const clean = thenParked(atRate(fixes, 1), 600);
      const random = prng(hash(name));
      const noisy = clean.map(withDriftingError(random, 3));

      // Act
      const outcome = detected(noisy, false);

      // Assess: against the clean drive's path
      const truth = truthOf(clean);
      expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
      expect(outcome.trips).toBe(truth.trips);
    });
});

describe('real drives with GPS error of their own on every fix', () => {
  for (const { name, fixes } of drives)
    for (const seed of [1, 2, 3])
      it(`measures ${name} at 5 s without speed within 2 % of its path when every fix is off by 5 m of its own (seed ${seed})`, () => {
        // Prepare: the drive at 5 s, then parked, each fix off by an independent error of 5 m per axis (the former rule
        // measured 8 of these 21 cases 2 to 5 % long: the error's zig-zag counted as path)
        const clean = thenParked(atRate(fixes, 5), 300);
        const noisy = clean.map(withIndependentError(prng(hash(`${name}${seed}`)), 5));

        // Act
        const outcome = detected(noisy, false);

        // Assess: against the clean drive's path
        const truth = truthOf(clean);
        expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
        expect(outcome.trips).toBe(truth.trips);
      });
});

describe('real drives with speed and GPS error of their own on every fix', () => {
  for (const seed of [1, 2, 3])
    it(`measures the seven drives at 5 s with speed within 1 % of their paths, each fix off by 10 m of its own (seed ${seed})`, () => {
      // Prepare: each drive at 5 s, then parked, each fix off by an independent error of 10 m per axis (counting every
      // step the speed says was driven, less its share of the error, measured them 1.7 to 2.3 % long together)
      const cases = drives.map(({ name, fixes }) => {
        const clean = thenParked(atRate(fixes, 5), 300);
        return { clean, noisy: clean.map(withIndependentError(prng(hash(`${name}${seed}`)), 10)) };
      });

      // Act
      const measuredKm = cases.reduce((km, { noisy }) => km + detected(noisy, true).distanceKm, 0);

      // Assess: against the clean drives' paths
      const truthKm = cases.reduce((km, { clean }) => km + truthOf(clean).distanceKm, 0);
      expect(Math.abs(measuredKm - truthKm)).toBeLessThanOrEqual(truthKm * 0.01);
    });
});

describe('state at 1 Hz', () => {
  const largestItem = (states: TrackState[]) => Math.max(...states.map((state) => Buffer.byteLength(JSON.stringify(state))));

  for (const withSpeed of [true, false])
    it(`stays small over a day of 1 Hz points ${withSpeed ? 'with' : 'without'} speed, parked and moving`, () => {
      // Prepare
      const day = dayAt1Hz();

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

describe("a car's drives of a day, one after another", () => {
  // the Skoda's first drive ends parked, and its second starts parked 210 m away: brought 4 to 11 minutes apart, the
  // device recording only while the engine runs sees the car stand before the silence and after it, never the stop
  const [first, second] = drives.filter(({ name }) => name.startsWith('skoda')).map(({ fixes }) => fixes) as [Fix[], Fix[]];
  for (const minutes of [4, 6, 8, 11])
    for (const everyS of [0, 1, 5, 15])
      for (const withSpeed of [true, false])
        it(
          `finds the Skoda's first two drives ${minutes} minutes apart as two trips ${rateOf(everyS)} ` +
            `${withSpeed ? 'with' : 'without'} speed`,
          () => {
            // Prepare
            const [one, two] = [first, second].map((fixes) => (everyS ? atRate(fixes, everyS) : fixes)) as [Fix[], Fix[]];
            const shiftMs = (one.at(-1) as Fix).at + minutes * 60_000 - (two[0] as Fix).at;
            const reported = thenParked([...one, ...two.map((fix) => ({ ...fix, at: fix.at + shiftMs }))], 600);

            // Act
            const outcome = detected(reported, withSpeed);

            // Assess: the 210 m moved unseen belong to the first trip, which ends where the car was seen parked again
            const truthKm = truthOf(one).distanceKm + truthOf(two).distanceKm + distanceKm(one.at(-1) as Fix, two[0] as Fix);
            expect(outcome.trips).toBe(2);
            expect(Math.abs(outcome.distanceKm - truthKm)).toBeLessThanOrEqual(truthKm * DISTANCE_TOLERANCE);
          },
        );

  // recorded only while the engine ran: the stops between them were not seen (4 minutes to over an hour)
  const days = ['skoda', 'kia'].map((car) => ({
    car,
    drives: drives.filter(({ name }) => name.startsWith(car)).map(({ fixes }) => fixes),
  }));

  for (const { car, drives: carDrives } of days)
    for (const everyS of [0, 1, 5, 15, 60])
      for (const withSpeed of [true, false])
        it(
          `finds each of the ${car}'s drives as its own trip ${rateOf(everyS)} ` +
            `${withSpeed ? 'with' : 'without'} speed, within 2 % of its path`,
          () => {
            // Prepare
            const reported = thenParked(
              carDrives.flatMap((fixes) => (everyS ? atRate(fixes, everyS) : fixes)),
              600,
            );
            const truth = truthOf(reported);

            // Act
            const outcome = detected(reported, withSpeed);

            // Assess
            expect(outcome.trips).toBe(truth.trips);
            expect(Math.abs(outcome.distanceKm - truth.distanceKm)).toBeLessThanOrEqual(truth.distanceKm * DISTANCE_TOLERANCE);
          },
        );
});
