/**
 * Distance where fixes carry GPS error (npm run bench -- gps-error): the seven enviroCar drives (test/fixtures; ODbL 1.0)
 * through the detector, clean at their own rate and at 1 to 30 s, and with error added at 1 to 15 s, each time from three
 * seeds: an independent error of 3, 5 and 10 m per axis on every fix (a receiver whose fixes are seconds apart, a feed
 * that thins a track), and a drifting one (a receiver's, correlated over about a minute). Each drive is followed by
 * 5 minutes parked (its jitter included) and measured against the clean drive's truth (test/support/real-drives.ts).
 * Per reporting: the spread and mean of the distance error, the cases more than 2 % off, and those with other trips.
 */
import { detect, initialTrackState, type VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { hash, prng } from '../../simulator/random.ts';
import { positionOf } from '../../test/support/position-builders.ts';
import {
  atRate,
  type Fix,
  realDrives,
  recordsOf,
  thenParked,
  truthOf,
  withDriftingError,
  withIndependentError,
  withThrownFixes,
} from '../../test/support/real-drives.ts';
import type { BenchSize, Row } from './report.ts';
import { round } from './report.ts';

const IMEI = '356307042441013';
const SEEDS = [1, 2, 3];
const PARKED_AFTER_S = 300;
const settings = detectionSettings({ useIgnition: false });
const profile: VehicleProfile = { odometerAtStartKm: 0, startHours: null, fuelCapacity: null, fuelFactor: 1 };

/**
 * How the fixes are reported: every `everyS` seconds (0: as recorded), with an error of `metres` of a kind, or clean;
 * `thrown`: that percentage of the fixes thrown 100–300 m off besides (outliers).
 */
interface Reporting {
  everyS: number;
  error: 'none' | 'independent' | 'drifting';
  metres: number;
  thrown?: number;
}

const REPORTINGS: readonly Reporting[] = [
  ...[0, 1, 5, 10, 15, 30].map((everyS) => ({ everyS, error: 'none' as const, metres: 0 })),
  ...[5, 10, 15].flatMap((everyS) => [3, 5, 10].map((metres) => ({ everyS, error: 'independent' as const, metres }))),
  { everyS: 1, error: 'drifting', metres: 3 },
  { everyS: 5, error: 'drifting', metres: 6 },
  { everyS: 15, error: 'drifting', metres: 10 },
  ...[1, 5, 10, 15].map((everyS) => ({ everyS, error: 'none' as const, metres: 0, thrown: 1 })),
];

const errorOf = (reporting: Reporting, seed: string): ((fix: Fix, n: number) => Fix) => {
  const random = prng(hash(seed));
  const thrown = withThrownFixes(random, (reporting.thrown ?? 0) / 100);
  if (reporting.error === 'independent') return withIndependentError(random, reporting.metres);
  if (reporting.error === 'drifting') return withDriftingError(random, reporting.metres);
  return thrown;
};

/** The distance error (%) of each case and whether its trips are the truth's. */
function measured(reporting: Reporting, withSpeed: boolean, drives: typeof realDrives) {
  return drives.flatMap(({ name, fixes }) =>
    (reporting.error === 'none' && !reporting.thrown ? [0] : SEEDS).map((seed) => {
      const clean = thenParked(reporting.everyS ? atRate(fixes, reporting.everyS) : fixes, PARKED_AFTER_S);
      const reported = clean.map(errorOf(reporting, `${name}${seed}`));
      const { state, trips } = detect(initialTrackState(profile), recordsOf(IMEI, reported, withSpeed).map(positionOf), profile, settings);
      const truth = truthOf(clean);
      return {
        errorPercent: ((state.odometerKm - truth.distanceKm) / truth.distanceKm) * 100,
        tripsRight: trips.length + (state.trip ? 1 : 0) === truth.trips,
      };
    }),
  );
}

export function benchGpsError(size: BenchSize = 'full'): Row[] {
  const drives = size === 'full' ? realDrives : realDrives.slice(0, 1);
  const reportings = size === 'full' ? REPORTINGS : REPORTINGS.filter(({ everyS, error }) => everyS === 5 && error === 'independent');
  return reportings.flatMap((reporting) =>
    [true, false].map((withSpeed) => {
      const cases = measured(reporting, withSpeed, drives);
      const errors = cases.map(({ errorPercent }) => errorPercent);
      return {
        'every s': reporting.everyS || 'own',
        'GPS error': reporting.thrown
          ? `${reporting.thrown} % thrown 100–300 m`
          : reporting.error === 'none'
            ? 'none'
            : `${reporting.error} ${reporting.metres} m`,
        speed: withSpeed ? 'yes' : 'no',
        cases: cases.length,
        'distance error % (min to max)': `${round(Math.min(...errors), 1)} to ${round(Math.max(...errors), 1)}`,
        'mean %': round(errors.reduce((total, error) => total + error, 0) / errors.length, 2),
        'over 2 %': errors.filter((error) => Math.abs(error) > 2).length,
        'trips off truth': cases.filter(({ tripsRight }) => !tripsRight).length,
      };
    }),
  );
}

export const gpsErrorNotes = [
  'each drive then 5 minutes parked, against the clean drive (test/support/real-drives.ts truthOf); with error, three seeds a drive',
  "independent: withIndependentError (every fix its own error, per axis); drifting: withDriftingError (the simulator's, about a minute)",
  'thrown: withThrownFixes (a share of the fixes each thrown 100–300 m off in a random direction: the outlier rule)',
];
