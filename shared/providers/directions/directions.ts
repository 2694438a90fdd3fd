/**
 * Directions for a route's stops from the provider DIRECTIONS_PROVIDER names (estimate | amazon | osrm | google,
 * read at call time), cached in S3 under directions/<sha256 of the provider and the ordered stops>.json
 * so an identical request never calls the provider twice.
 */
import { createHash } from 'node:crypto';
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import type { LegMeasure } from '../../domain/route/rules.ts';
import { findObject, putObject } from '../../store/bucket.ts';
import { amazonRoutesProvider } from './amazon.ts';
import { estimateProvider } from './estimate.ts';
import { googleProvider } from './google.ts';
import { osrmProvider } from './osrm.ts';
import type { DirectionsProvider } from './provider.ts';

export interface Directions {
  source: string;
  legs: LegMeasure[];
}

const providers = new Map<string, () => DirectionsProvider>([
  ['estimate', estimateProvider],
  ['amazon', amazonRoutesProvider],
  ['osrm', osrmProvider],
  ['google', googleProvider],
]);

function directionsProvider(): DirectionsProvider {
  const name = config.directionsProvider();
  const provider = providers.get(name);
  if (!provider) throw new Error(`DIRECTIONS_PROVIDER must be one of ${[...providers.keys()].join(', ')}, not ${name}`);
  return provider();
}

export async function findDirections(points: readonly LatLng[]): Promise<Directions> {
  const provider = directionsProvider();
  if (provider.endpoint === undefined) return { source: provider.name, legs: await provider.legs(points) };
  const key = cacheKey(provider, points);
  const cached = await findObject(key);
  if (cached) return { source: provider.name, legs: JSON.parse(Buffer.from(cached).toString('utf8')) as LegMeasure[] };
  const legs = await provider.legs(points);
  await putObject(key, JSON.stringify(legs), 'application/json');
  return { source: provider.name, legs };
}

/** The provider and its base URL (never its key) with the stops in order. */
function cacheKey(provider: DirectionsProvider, points: readonly LatLng[]): string {
  const identity = JSON.stringify([provider.name, provider.endpoint, points.map(({ lat, lng }) => [lat, lng])]);
  return `directions/${createHash('sha256').update(identity).digest('hex')}.json`;
}
