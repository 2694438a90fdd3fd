/**
 * OSRM's HTTP `route` service: GET <base>/route/v1/driving/<lng>,<lat>;<lng>,<lat>...?overview=false&steps=false.
 * Coordinates go longitude first. The answer's routes[0].legs[i] carry distance (m) and duration (s);
 * a `code` other than `Ok` is a failure (OSRM itself answers those with HTTP 400).
 */

import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { type DirectionsProvider, fetchJson, measuredLegs, refusal } from './provider.ts';

const NAME = 'osrm';

/** Only with an explicit OSRM_URL: the public demo server's usage policy does not allow production traffic. */
export function osrmProvider(): DirectionsProvider {
  const url = config.osrmUrl();
  if (!url) throw new Error('DIRECTIONS_PROVIDER is osrm but OSRM_URL is not set (the public demo server is never a default)');
  const base = url.replace(/\/+$/, '');
  return {
    name: NAME,
    endpoint: base,
    async legs(points: readonly LatLng[]) {
      const coordinates = points.map(({ lat, lng }) => `${lng},${lat}`).join(';');
      const url = new URL(`${base}/route/v1/driving/${coordinates}`);
      url.search = new URLSearchParams({ overview: 'false', steps: 'false' }).toString();
      const answer = await fetchJson(NAME, url);
      if (answer.code !== 'Ok') throw refusal(NAME, 'code', answer.code);
      const [route] = Array.isArray(answer.routes) ? (answer.routes as Record<string, unknown>[]) : [];
      return measuredLegs(NAME, route?.legs, points.length - 1, (leg) => [leg.distance, leg.duration]);
    },
  };
}
