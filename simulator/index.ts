/** The simulator's public surface: what the seed, the scripts, the benches and the tests import. */
export * from './day.ts';
export * from './fleet.ts';
export * from './places.ts';
export * from './random.ts';
