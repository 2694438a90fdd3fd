/**
 * A multi-week fleet with ignition wiring doing short rounds from one bay (simulator/fleet.ts depotRoundsFleet): every
 * round starts and ends at exactly the coordinates of the rounds before, as a tracker holding its fix while standing
 * sends them, at 6, 5 and 4 decimals. Detected through the pipeline's own plan and checkpoints in the stream's batches,
 * every round is a trip from its ignition on to its ignition off, and no fault rule takes a real fix for a resent one.
 */
import { describe, expect, it } from 'vitest';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { DEFAULT_DETECTION } from '../../shared/domain/tracking/settings.ts';
import { depotRoundsFleet, type SimulatedDay } from '../../simulator/index.ts';
import { detectThroughPlans } from '../support/planned-detection.ts';
import { parsed, profileOf } from '../support/simulated-positions.ts';

const DISTANCE_TOLERANCE = 0.02;
/** one round of 1 to 4 km sampled every 10 s: its corners cut by a few metres */
const ROUND_TOLERANCE = 0.05;
const WEEKS = 2;
/** a runaway guard, not a bound on speed: weeks of points through the plan path share two cores with other work */
const WEEKS_OF_POINTS_MS = 180_000;
/** seconds of the stream's batching window that cuts the records into batches */
const WINDOW_S = 600;

function inWindows(positions: readonly Position[]): Position[][] {
  const windows = new Map<number, Position[]>();
  for (const position of positions) {
    const window = Math.floor(Date.parse(position.gps_datetime) / 1000 / WINDOW_S);
    windows.set(window, [...(windows.get(window) ?? []), position]);
  }
  return [...windows.values()];
}

const iso = (at: string) => new Date(at).toISOString();

function detectFleet(decimals: number, everyS: number) {
  const fleet = depotRoundsFleet(2, '2026-10-05', WEEKS * 7, { decimals, seed: decimals, reporting: { drivingIntervalS: everyS } });
  return fleet.map((days) => ({
    truth: days.flatMap((day) => day.truth.trips),
    found: detectThroughPlans(
      inWindows(days.flatMap((day) => day.records.map(parsed))),
      profileOf((days[0] as SimulatedDay).vehicle),
      DEFAULT_DETECTION,
    ),
  }));
}

describe('a fleet doing rounds from one bay for weeks, its ignition wired', () => {
  for (const decimals of [6, 5, 4])
    it(
      `finds every round as one trip, from ignition on to off, its devices sending ${decimals} decimals`,
      () => {
        // Act
        const vehicles = detectFleet(decimals, 30);

        // Assess
        for (const { truth, found } of vehicles) {
          expect(truth.length).toBeGreaterThan(WEEKS * 7 * 15);
          expect(found.trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual(
            truth.map((trip) => [iso(trip.start), iso(trip.stop)]),
          );
        }
      },
      WEEKS_OF_POINTS_MS,
    );

  it(
    'measures the rounds within 2 % over the weeks, and each within 5 %, at 10 s',
    () => {
      // Act
      const vehicles = detectFleet(6, 10);

      // Assess
      for (const { truth, found } of vehicles) {
        const sum = (kms: number[]) => kms.reduce((total, km) => total + km, 0);
        const truthKm = sum(truth.map((trip) => trip.distanceKm));
        expect(Math.abs(sum(found.trips.map((trip) => trip.distanceKm)) - truthKm)).toBeLessThanOrEqual(truthKm * DISTANCE_TOLERANCE);
        truth.forEach((trip, n) => {
          expect(Math.abs(found.trips[n]!.distanceKm - trip.distanceKm)).toBeLessThanOrEqual(trip.distanceKm * ROUND_TOLERANCE);
        });
      }
    },
    WEEKS_OF_POINTS_MS,
  );
});
