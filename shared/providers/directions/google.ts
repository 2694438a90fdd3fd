/**
 * Google Directions: GET <base>?origin=lat,lng&destination=lat,lng&waypoints=lat,lng|...&key=K.
 * The answer's routes[0].legs[i].distance.value (m) and .duration.value (s); a `status` other than
 * `OK` (ZERO_RESULTS, REQUEST_DENIED, ...) is a failure. The URL carries the key, so it never
 * appears in a message, a log line or the cache key.
 */

import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { googleApiKey } from '../google-api-key.ts';
import { type DirectionsProvider, fetchJson, measuredLegs, refusal } from './provider.ts';

const NAME = 'google';
const DEFAULT_URL = 'https://maps.googleapis.com/maps/api/directions/json';

export function googleProvider(): DirectionsProvider {
  const base = config.googleDirectionsUrl() ?? DEFAULT_URL;
  return {
    name: NAME,
    endpoint: base,
    async legs(points: readonly LatLng[]) {
      const text = points.map(({ lat, lng }) => `${lat},${lng}`);
      const url = new URL(base);
      url.searchParams.set('origin', text[0] as string);
      url.searchParams.set('destination', text[text.length - 1] as string);
      if (text.length > 2) url.searchParams.set('waypoints', text.slice(1, -1).join('|'));
      url.searchParams.set('key', await googleDirectionsKey());
      const answer = await fetchJson(NAME, url);
      if (answer.status !== 'OK') throw refusal(NAME, 'status', answer.status);
      const [route] = Array.isArray(answer.routes) ? (answer.routes as Record<string, unknown>[]) : [];
      return measuredLegs(NAME, route?.legs, points.length - 1, (leg) => [measureOf(leg.distance), measureOf(leg.duration)]);
    },
  };
}

/** Google's `{ value, text }` measure, as its number. */
const measureOf = (field: unknown): unknown =>
  typeof field === 'object' && field !== null ? (field as { value?: unknown }).value : undefined;

/** In AWS the secret GOOGLE_DIRECTIONS_API_KEY_SECRET names, locally GOOGLE_DIRECTIONS_API_KEY. */
const googleDirectionsKey = (): Promise<string> =>
  googleApiKey(
    config.googleDirectionsApiKeySecret(),
    config.googleDirectionsApiKey(),
    'DIRECTIONS_PROVIDER is google but GOOGLE_DIRECTIONS_API_KEY is not set',
  );
