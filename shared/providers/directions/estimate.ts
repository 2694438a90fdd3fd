/**
 * The built-in estimate: great-circle distance per leg at a steady speed (ESTIMATE_SPEED_KMH,
 * default 50 km/h). No network, so it serves local use and tests, and needs no cache.
 */

import { config } from '../../config.ts';
import { distanceKm, type LatLng } from '../../domain/geo.ts';
import type { DirectionsProvider } from './provider.ts';

export function estimateProvider(): DirectionsProvider {
  const speedKmh = config.estimateSpeedKmh();
  if (!Number.isFinite(speedKmh) || speedKmh <= 0) throw new Error('ESTIMATE_SPEED_KMH must be a positive number of km/h');
  return {
    name: 'estimate',
    async legs(points: readonly LatLng[]) {
      return points.slice(1).map((to, index) => {
        const km = distanceKm(points[index] as LatLng, to);
        return { distanceKm: km, durationS: (km / speedKmh) * 3600 };
      });
    },
  };
}
