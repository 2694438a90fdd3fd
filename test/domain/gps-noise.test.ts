/**
 * The receiver's error estimated from a vehicle's own fixes (shared/domain/tracking/gps-noise.ts): what independent
 * errors read, what a road's curves and a drifting error read, and what a step counts once the error is taken off.
 * Contains enviroCar data, available under the Open Database License (ODbL) 1.0 (test/fixtures/envirocar-drives.json).
 */
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../shared/domain/geo.ts';
import { beyondNoiseKm, type GpsNoise, NO_GPS_NOISE, noiseM, withFix } from '../../shared/domain/tracking/gps-noise.ts';
import { gaussian, hash, prng } from '../../simulator/random.ts';
import { displaced } from '../../simulator/roads.ts';
import { atRate, type Fix, realDrives, withDriftingError, withIndependentError } from '../support/real-drives.ts';

const estimateOf = (fixes: readonly Fix[]): GpsNoise =>
  fixes.reduce((noise, fix) => withFix(noise, { at: new Date(fix.at).toISOString(), lat: fix.lat, lng: fix.lng }), NO_GPS_NOISE);

/** The estimate as it reads after each fix. */
const readingsAlong = (fixes: readonly Fix[]): number[] => {
  let noise = NO_GPS_NOISE;
  return fixes.map((fix) => {
    noise = withFix(noise, { at: new Date(fix.at).toISOString(), lat: fix.lat, lng: fix.lng });
    return noiseM(noise);
  });
};

/** A vehicle standing at one spot, a fix every `everyS` seconds for `seconds`. */
const standing = (everyS: number, seconds: number): Fix[] =>
  Array.from({ length: seconds / everyS }, (_, n) => ({
    at: Date.parse('2026-11-05T06:00:00Z') + n * everyS * 1000,
    lat: -26,
    lng: 28,
    speed: 0,
  }));

describe('the estimated GPS error', () => {
  for (const metres of [3, 5, 10, 20, 30, 50])
    it(`reads an independent error of ${metres} m per axis on a standing vehicle's fixes within a fifth`, () => {
      // Prepare
      const fixes = standing(5, 1800).map(withIndependentError(prng(hash(`standing ${metres}`)), metres));

      // Act
      const error = noiseM(estimateOf(fixes));

      // Assess
      expect(Math.abs(error - metres)).toBeLessThanOrEqual(metres / 5);
    });

  for (const everyS of [5, 15])
    it(`reads an independent error of 10 m on a real drive at ${everyS} s, never more`, () => {
      // Prepare: the longest town drive, each fix off by its own error
      const { name, fixes } = realDrives.find(({ name }) => name.startsWith('opel')) as (typeof realDrives)[number];
      const noisy = atRate(fixes, everyS).map(withIndependentError(prng(hash(name)), 10));

      // Act
      const error = noiseM(estimateOf(noisy));

      // Assess: a road's curves and a change of pace lower the estimate, never raise it
      expect(error).toBeGreaterThan(3);
      expect(error).toBeLessThanOrEqual(11);
    });

  it('reads most of an independent error of 10 m all along town drives at 15 s, whatever their changes of pace', () => {
    // Prepare: four town drives at 15 s, ten seeds each; a change of pace moves a fix along the road by as much as the error
    const drives = realDrives.filter(({ name }) => /kia-picanto-2020-03-04-drive1|opel|skoda-2020-03-04-drive[12]/.test(name));
    const noisyDrives = drives.flatMap(({ name, fixes }) =>
      Array.from({ length: 10 }, (_, seed) => atRate(fixes, 15).map(withIndependentError(prng(hash(`${name} ${seed}`)), 10))),
    );

    // Act: the estimate at each fix once the first 20 have been read
    const readings = noisyDrives.flatMap((noisy) => readingsAlong(noisy).slice(20));

    // Assess: it read 4.1 m on average (now 6.7) when the deviation along the road counted too
    const mean = readings.reduce((sum, reading) => sum + reading, 0) / readings.length;
    expect(mean).toBeGreaterThan(6);
    expect(mean).toBeLessThanOrEqual(11);
  });

  for (const { name, fixes } of realDrives)
    for (const everyS of [1, 5, 15, 30])
      it(`reads no error on ${name}'s clean fixes at ${everyS} s, whatever its curves`, () => {
        // Act
        const error = noiseM(estimateOf(atRate(fixes, everyS)));

        // Assess
        expect(error).toBeLessThan(1);
      });

  it("reads a receiver's drifting error at 1 s as almost none: neighbouring fixes move together", () => {
    // Prepare
    const { name, fixes } = realDrives[0] as (typeof realDrives)[number];
    const drifting = atRate(fixes, 1).map(withDriftingError(prng(hash(name)), 6));

    // Act
    const error = noiseM(estimateOf(drifting));

    // Assess
    expect(error).toBeLessThan(1);
  });

  it('leaves steps longer than 15 s out: the road between them says more than the error', () => {
    // Prepare: fixes 20 s apart, each far off the line between its neighbours
    const fixes = standing(20, 1800).map((fix, n) => ({ ...fix, ...displaced(fix, { northM: n % 2 ? 200 : -200, eastM: 0 }) }));

    // Act
    const estimate = estimateOf(fixes);

    // Assess
    expect(estimate.samples).toBe(0);
    expect(noiseM(estimate)).toBe(0);
  });
});

describe('a step without the error', () => {
  it('counts a straight drive between fixes with independent errors at its true length, on average', () => {
    // Prepare: 30 m steps east (20 km/h at 5 s), each fix off by 10 m per axis
    const random = prng(hash('straight'));
    const truth = Array.from({ length: 2000 }, (_, n) => ({ lat: -26, lng: 28 + (n * 0.03) / (111.195 * Math.cos((26 * Math.PI) / 180)) }));
    const fixes = truth.map((point) => displaced(point, { northM: gaussian(random) * 10, eastM: gaussian(random) * 10 }));
    const noise = { ...NO_GPS_NOISE, meanProduct: -2 * 10 * 10 };

    // Act
    const steps = fixes.slice(1).map((fix, n) => distanceKm(fixes[n] as (typeof fixes)[number], fix));
    const counted = steps.reduce((total, step) => total + beyondNoiseKm(step, noise), 0);
    const raw = steps.reduce((total, step) => total + step, 0);

    // Assess: the fixes' path is 10 % or more too long; without the error, within 2 %
    const trueKm = 0.03 * (truth.length - 1);
    expect(raw).toBeGreaterThan(trueKm * 1.1);
    expect(Math.abs(counted - trueKm)).toBeLessThanOrEqual(trueKm * 0.02);
  });

  it('counts a step within the error as none, and a step without an error estimate as it is', () => {
    // Prepare
    const noise = { ...NO_GPS_NOISE, meanProduct: -2 * 10 * 10 };

    // Act, Assess
    expect(beyondNoiseKm(0.012, noise)).toBe(0);
    expect(beyondNoiseKm(0.012, NO_GPS_NOISE)).toBe(0.012);
  });
});
