/**
 * Detection does not depend on batching (docs/positions-pipeline.md, "Guarantees"): real drives shifted by any offset
 * (so the hours fall anywhere in them), cut into batches of any size and delivered in any order, through the pipeline's
 * own plan and checkpoints (test/support/planned-detection.ts), give the trips and odometer of one whole run. Contains
 * enviroCar data, available under the Open Database License (ODbL) 1.0 (test/fixtures/envirocar-drives.json).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detect, initialTrackState, type VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { DEFAULT_DETECTION, detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { depotRoundsFleet, type SimulatedDay } from '../../simulator/index.ts';
import { hash, prng } from '../../simulator/random.ts';
import { detectThroughPlans } from '../support/planned-detection.ts';
import { positionOf } from '../support/position-builders.ts';
import { atRate, type Fix, realDrives, recordsOf, thenParked, withIndependentError, withThrownFixes } from '../support/real-drives.ts';

const IMEI = '356307042441013';
/** a runaway guard, not a bound on speed: every run walks its drive through the plan path once per batch */
const RUNAWAY_GUARD_MS = 180_000;
const profile: VehicleProfile = { odometerAtStartKm: 0, startHours: null, fuelCapacity: null, fuelFactor: 1 };
const withoutIgnition = detectionSettings({ useIgnition: false });

const named = (prefix: string) => realDrives.filter(({ name }) => name.startsWith(prefix)).map(({ fixes }) => fixes);
/** each drive alone, and each car's drives of a day one after another (with the stops it was not seen at between them) */
const tracks: Fix[][] = [...realDrives.map(({ fixes }) => fixes), named('skoda').flat(), named('kia').flat()];

/** A day of rounds from one bay with ignition wiring, as its records come. */
const [rounds] = depotRoundsFleet(1, '2026-10-05', 1)[0] as SimulatedDay[];
const roundsProfile: VehicleProfile = {
  odometerAtStartKm: (rounds as SimulatedDay).vehicle.odometerKm,
  startHours: null,
  fuelCapacity: (rounds as SimulatedDay).vehicle.fuelCapacity,
  fuelFactor: (rounds as SimulatedDay).vehicle.fuelFactor,
};

/** the drives that are one trip each (the van's has three) */
const singleDrives = realDrives.filter(({ name }) => !name.startsWith('opel')).map(({ fixes }) => fixes);
const LIGHT_S = 14;

/**
 * The drive (a fix every `everyS` seconds) standing LIGHT_S seconds halfway (speed 0), its fixes there as `wander` makes
 * them, the rest that much later.
 */
function withLight(fixes: readonly Fix[], everyS: number, wander: (fix: Fix) => Fix): Fix[] {
  const n = Math.floor(fixes.length / 2);
  const light = fixes[n] as Fix;
  const standing = Array.from({ length: Math.floor(LIGHT_S / everyS) }, (_, s) =>
    wander({ ...light, at: light.at + (s + 1) * everyS * 1000, speed: 0 }),
  );
  return [...fixes.slice(0, n + 1), ...standing, ...fixes.slice(n + 1).map((fix) => ({ ...fix, at: fix.at + LIGHT_S * 1000 }))];
}

const shifted = (positions: readonly Position[], ms: number): Position[] =>
  positions.map((position) => ({ ...position, gps_datetime: new Date(Date.parse(position.gps_datetime) + ms).toISOString() }));

/** The points cut at the given sizes (repeated), then the batches in the order `order` ranks them. */
function batches(positions: readonly Position[], sizes: readonly number[], order: readonly number[]): Position[][] {
  const cut: Position[][] = [];
  for (let i = 0, n = 0; i < positions.length; n++) {
    const size = sizes[n % sizes.length] as number;
    cut.push(positions.slice(i, i + size));
    i += size;
  }
  const rank = (n: number) => order[n % order.length] as number;
  return cut
    .map((batch, n) => ({ batch, n }))
    .sort((a, b) => rank(a.n) - rank(b.n) || a.n - b.n)
    .map(({ batch }) => batch);
}

const delivery = {
  /** up to two weeks, to the millisecond: the hour boundaries fall anywhere */
  offsetMs: fc.integer({ min: 0, max: 14 * 86_400_000 }),
  sizes: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 6 }),
  /** mostly in order; a rank below the others' delivers a batch early, above them late */
  order: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
};

function expectSameAsOneRun(positions: readonly Position[], cut: Position[][], vehicle: VehicleProfile, settings = withoutIgnition) {
  const whole = detect(initialTrackState(vehicle), positions, vehicle, settings);
  const planned = detectThroughPlans(cut, vehicle, settings);
  expect(planned.trips).toEqual(whole.trips);
  expect(planned.odometerKm).toBeCloseTo(whole.state.odometerKm, 9);
  expect(planned.state.trip?.start.at).toBe(whole.state.trip?.start.at);
}

describe('detection whatever the batching', () => {
  it(
    'finds the trips and odometer of one whole run in real drives shifted anywhere, cut anyhow, delivered in any order',
    () => {
      fc.assert(
        fc.property(
          fc.nat(tracks.length - 1),
          fc.constantFrom(0, 1, 15),
          fc.boolean(),
          delivery.offsetMs,
          delivery.sizes,
          delivery.order,
          (track, everyS, withSpeed, offsetMs, sizes, order) => {
            // Prepare
            const fixes = everyS ? atRate(tracks[track] as Fix[], everyS) : (tracks[track] as Fix[]);
            const positions = shifted(recordsOf(IMEI, fixes, withSpeed).map(positionOf), offsetMs);

            // Act, Assess
            expectSameAsOneRun(positions, batches(positions, sizes, order), profile);
          },
        ),
        { numRuns: 25, seed: 37 },
      );
    },
    RUNAWAY_GUARD_MS,
  );

  it(
    'keeps a drive at 1 or 5 s that stands 14 s at a light one trip, ' +
      'its fixes wandering 0 to 40 m there and its clock in fractions of a second',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...singleDrives),
          fc.constantFrom(1, 5),
          fc.integer({ min: 0, max: 40 }),
          fc.boolean(),
          fc.boolean(),
          delivery.offsetMs,
          fc.array(fc.integer({ min: 5, max: 1000 }), { minLength: 1, maxLength: 4 }),
          (fixes, everyS, errorM, withSpeed, fractions, offsetMs, sizes) => {
            // Prepare: the drive at everyS, standing 14 s halfway with speed 0 while its fixes wander by errorM (a fix that
            // wanders off within a second of the one before is a jump, and the next fix of its second is not read: before,
            // the detector read it and the pipeline, which stores one fix a second, did not)
            const random = prng(hash(`${everyS} ${errorM} ${offsetMs}`));
            const drive = withLight(atRate(fixes, everyS), everyS, withIndependentError(random, errorM));
            const clocked = fractions ? drive.map((fix) => ({ ...fix, at: fix.at + Math.floor(random() * 900) })) : drive;
            const positions = shifted(recordsOf(IMEI, thenParked(clocked, 300), withSpeed).map(positionOf), offsetMs);

            // Act, Assess
            expectSameAsOneRun(positions, batches(positions, sizes, [0]), profile);
            expect(detect(initialTrackState(profile), positions, profile, withoutIgnition).trips).toHaveLength(1);
          },
        ),
        { numRuns: 30, seed: 37 },
      );
    },
    RUNAWAY_GUARD_MS,
  );

  it(
    'finds the trips and odometer of one whole run where the receiver errs, throws fixes off the way and stands parked',
    () => {
      fc.assert(
        fc.property(
          fc.nat(tracks.length - 1),
          fc.constantFrom(5, 10),
          fc.integer({ min: 0, max: 10 }),
          fc.boolean(),
          delivery.offsetMs,
          delivery.sizes,
          delivery.order,
          (track, everyS, errorM, withSpeed, offsetMs, sizes, order) => {
            // Prepare: fixes off by errorM, one in 30 thrown 100-300 m (held until the next fix decides), then 20
            // minutes parked (its steps held until a trip opens, none does)
            const random = prng(hash(`${track} ${everyS} ${errorM} ${offsetMs}`));
            const noisy = thenParked(atRate(tracks[track] as Fix[], everyS), 1200).map(withIndependentError(random, errorM));
            const fixes = noisy.map(withThrownFixes(random, 1 / 30));
            const positions = shifted(recordsOf(IMEI, fixes, withSpeed).map(positionOf), offsetMs);

            // Act, Assess
            expectSameAsOneRun(positions, batches(positions, sizes, order), profile);
          },
        ),
        { numRuns: 25, seed: 37 },
      );
    },
    RUNAWAY_GUARD_MS,
  );

  it(
    'keeps the earliest fix of a second, whichever arrives first, where a device sends two fixes in one second',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...singleDrives),
          fc.constantFrom(0.003, 0.03),
          fc.boolean(),
          delivery.offsetMs,
          delivery.sizes,
          delivery.order,
          (fixes, apartKm, withSpeed, offsetMs, sizes, order) => {
            // Prepare: the drive at 5 s, each fix at .2 s, and every other one sent again at .7 s, 3 or 30 m on, standing
            const drive = atRate(fixes, 5).map((fix) => ({ ...fix, at: fix.at + 200 }));
            const again = drive
              .filter((_, n) => n % 2 === 0)
              .map((fix) => ({ ...fix, at: fix.at + 500, lat: fix.lat + apartKm / 111.195, speed: 0 }));
            const positions = shifted(recordsOf(IMEI, [...drive, ...again], withSpeed).map(positionOf), offsetMs);
            const inTime = [...positions].sort((a, b) => a.gps_datetime.localeCompare(b.gps_datetime));

            // Act, Assess: the second fix of a second arriving first (a later batch first) changes nothing
            expectSameAsOneRun(inTime, batches(inTime, sizes, order), profile);
          },
        ),
        { numRuns: 25, seed: 37 },
      );
    },
    RUNAWAY_GUARD_MS,
  );

  it(
    'finds the trips and odometer of one whole run in a day of rounds with ignition, shifted anywhere, cut anyhow, in any order',
    () => {
      fc.assert(
        fc.property(delivery.offsetMs, delivery.sizes, delivery.order, (offsetMs, sizes, order) => {
          // Prepare
          const positions = shifted((rounds as SimulatedDay).records.map(positionOf), offsetMs);

          // Act, Assess
          expectSameAsOneRun(positions, batches(positions, sizes, order), roundsProfile, DEFAULT_DETECTION);
        }),
        { numRuns: 15, seed: 37 },
      );
    },
    RUNAWAY_GUARD_MS,
  );
});
