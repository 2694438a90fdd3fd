/** The one seeded random generator of the simulator, the benches and the tests: a seed always gives the same numbers. */

/** mulberry32: a tiny, fast, seedable generator (uniform in [0, 1)). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a, to seed a road by its places' names. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export const gaussian = (random: () => number): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
export const uniform = (random: () => number, low: number, high: number): number => low + (high - low) * random();
export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** A receiver's position error at a time (seconds), in metres north and east. */
export interface GpsError {
  atS: number;
  northM: number;
  eastM: number;
}

/** No error yet: the first drift draws it fresh. */
export const NO_GPS_ERROR: GpsError = { atS: Number.NEGATIVE_INFINITY, northM: 0, eastM: 0 };

/** How long a receiver's error takes to change (its correlation time). */
const GPS_ERROR_CORRELATION_S = 60;

/**
 * GPS error drifts rather than jumping (a first-order Gauss-Markov process): fixes a second apart share most of it,
 * fixes minutes apart little. `metres` is its standard deviation.
 */
export function driftedGpsError(random: () => number, from: GpsError, atS: number, metres: number): GpsError {
  const kept = Math.exp(-(atS - from.atS) / GPS_ERROR_CORRELATION_S);
  const fresh = Math.sqrt(1 - kept * kept) * metres;
  const northM = kept * from.northM + gaussian(random) * fresh;
  return { atS, northM, eastM: kept * from.eastM + gaussian(random) * fresh };
}
