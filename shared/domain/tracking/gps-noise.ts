/**
 * The receiver's error, estimated from a vehicle's own fixes, and the distance it adds taken off (docs/positions-pipeline.md,
 * "How distance is bounded"). A fix's deviation from the straight line between its neighbours (in time) is the road's curve
 * or the vehicle's speeding up, plus the fixes' errors. Errors independent from fix to fix make successive deviations
 * point opposite ways (the middle fix's error enters one deviation whole and the next by half, with the other sign):
 * per axis their covariance is −σ². A curve, a turn or a change of pace bends successive deviations the same way: the
 * covariance it adds is positive, so the estimate never takes a road's shape for error. An error that drifts slowly (a
 * receiver's, over about a minute) moves neighbouring fixes together and adds nearly nothing to a step, and nearly nothing
 * to the estimate either.
 * Where the vehicle moves, only the deviation across its way counts: along it a change of pace over 10–15 s moves a fix
 * by tens of metres, and pace changes that alternate (a queue, a junction) bent the deviations opposite ways as an error
 * does; across the way the error is the same as on any axis.
 */
import { EARTH_RADIUS_KM } from '../geo.ts';
import { secondsBetween } from '../time.ts';

interface Fix {
  at: string;
  lat: number;
  lng: number;
}

export interface GpsNoise {
  /** the last two fixes taken, oldest first */
  fixes: Fix[];
  /** the last fix's deviation from the line between its neighbours, metres north and east */
  deviation: [number, number] | null;
  /** the mean product of successive deviations (m²): a running mean, then a moving one over NOISE_WINDOW */
  meanProduct: number;
  samples: number;
}

export const NO_GPS_NOISE: GpsNoise = { fixes: [], deviation: null, meanProduct: 0, samples: 0 };

/** How many successive deviations the moving mean follows: a few minutes of fixes. */
const NOISE_WINDOW = 60;
/**
 * Steps longer than this (s) say little of the error: over them the road's curves between fixes, which alternate, outweigh
 * it (clean drives at 20–30 s read 3–13 m, at 15 s nothing). A track that sparse has steps long next to any error.
 */
const NOISE_STEP_S = 15;
/**
 * One product strays at most this much (m²) from the mean so far, or BOUND_TIMES the estimated σ² where that is more, so
 * a single curve, S-bend or bad fix moves the estimate by little. The products of an error of σ spread about 2.5σ² around
 * −2σ²: a fixed bound cut every estimate down to 20 m, and a parked receiver off by 30 m kept leaving the radius its
 * estimate set; a bound around 0 rather than the mean let a drive's first curves take a 10 m error to nothing.
 */
const MAX_PRODUCT_M2 = 800;
const BOUND_TIMES = 8;

/**
 * The deviation counts across the way only where its neighbours are this far apart (m) and ACROSS_TIMES the estimated
 * error: nearer, the line between them points wherever their errors put it (a standing vehicle's, a walking pace).
 */
const ACROSS_MIN_M = 60;
const ACROSS_TIMES = 5;

const RAD = Math.PI / 180;
const M_PER_DEGREE = RAD * EARTH_RADIUS_KM * 1000;

/**
 * The deviation of `middle` from where the straight line from `from` to `to` is at its time, in metres north and east:
 * where they are far enough apart, its part across that line, times √2 so that it carries the error of both axes.
 */
function deviationOf(from: Fix, middle: Fix, to: Fix, errorM: number): [number, number] {
  const share = secondsBetween(from.at, middle.at) / secondsBetween(from.at, to.at);
  const metresPerDegreeEast = M_PER_DEGREE * Math.cos(middle.lat * RAD);
  const north = (middle.lat - from.lat - (to.lat - from.lat) * share) * M_PER_DEGREE;
  const east = (middle.lng - from.lng - (to.lng - from.lng) * share) * metresPerDegreeEast;
  const [wayNorth, wayEast] = [(to.lat - from.lat) * M_PER_DEGREE, (to.lng - from.lng) * metresPerDegreeEast];
  const wayM = Math.hypot(wayNorth, wayEast);
  if (wayM < Math.max(ACROSS_MIN_M, ACROSS_TIMES * errorM)) return [north, east];
  const [acrossNorth, acrossEast] = [-wayEast / wayM, wayNorth / wayM];
  const across = (north * acrossNorth + east * acrossEast) * Math.SQRT2;
  return [across * acrossNorth, across * acrossEast];
}

/** σ² per axis: minus half the mean product of successive deviations. */
const estimatedVariance = (noise: GpsNoise | undefined): number => Math.max(0, -(noise?.meanProduct ?? 0) / 2);

/** The estimate with one more fix (in time order, one per instant). */
export function withFix(noise: GpsNoise, fix: Fix): GpsNoise {
  const [from, middle] = noise.fixes.length === 2 ? noise.fixes : [undefined, noise.fixes[0]];
  const fixes = [...(middle ? [middle] : []), { at: fix.at, lat: fix.lat, lng: fix.lng }];
  const short = (a: Fix, b: Fix) => secondsBetween(a.at, b.at) <= NOISE_STEP_S;
  if (!from || !middle || !short(from, middle) || !short(middle, fix)) return { ...noise, fixes, deviation: null };
  const deviation = deviationOf(from, middle, fix, noiseM(noise));
  if (!noise.deviation) return { ...noise, fixes, deviation };
  const product = noise.deviation[0] * deviation[0] + noise.deviation[1] * deviation[1];
  const samples = noise.samples + 1;
  const bound = Math.max(MAX_PRODUCT_M2, BOUND_TIMES * estimatedVariance(noise));
  const bounded = Math.max(noise.meanProduct - bound, Math.min(noise.meanProduct + bound, product));
  const meanProduct = noise.meanProduct + (bounded - noise.meanProduct) / Math.min(samples, NOISE_WINDOW);
  return { fixes, deviation, meanProduct, samples };
}

/** The estimated error of one fix, per axis (m): independent errors only, 0 when the fixes show none. */
export const noiseM = (noise: GpsNoise | undefined): number => Math.sqrt(estimatedVariance(noise));

/**
 * A step between two fixes without what the fixes' errors add to it: the errors of both ends (2σ² per axis) lengthen it
 * by about σ²/length across the step, so the length whose square is the step's less 2σ² is, on average, the true one; a
 * step no longer than the errors is none.
 */
export function beyondNoiseKm(stepKm: number, noise: GpsNoise | undefined): number {
  const errorKm = noiseM(noise) / 1000;
  return errorKm === 0 ? stepKm : Math.sqrt(Math.max(0, stepKm * stepKm - 2 * errorKm * errorKm));
}
