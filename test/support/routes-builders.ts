/** Routes made through addRoute (the shared emulator uses the estimate provider), and places to route between. */
import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { distanceKm, type LatLng } from '../../shared/domain/geo.ts';
import { keys } from '../../shared/store/keys.ts';
import { queryRange } from '../../shared/store/requests.ts';
import { api } from './api.ts';
import type { TestUser } from './builders.ts';

const METRES_PER_DEGREE_LAT = (6371.0088 * 1000 * Math.PI) / 180;

/** A random spot in Gauteng, so cached directions of one test never answer another's. */
export function somewhere(): LatLng {
  return { lat: round6(-26.5 + randomInt(0, 500_000) / 1e6), lng: round6(27.8 + randomInt(0, 500_000) / 1e6) };
}

/**
 * `count` random spots at least `minKm` apart from each other, for trips between them: a short drive spread over a
 * test's usual 20 minutes is a crawl, which detection rightly takes for no trip at all.
 */
export function placesApart<N extends number>(count: N, minKm = 5): Places<N> {
  const places: LatLng[] = [];
  while (places.length < count) {
    const candidate = somewhere();
    if (places.every((place) => distanceKm(place, candidate) >= minKm)) places.push(candidate);
  }
  return places as Places<N>;
}

/** A tuple of `N` places, so each can be destructured without a check. */
type Places<N extends number, Found extends LatLng[] = []> = Found['length'] extends N ? Found : Places<N, [...Found, LatLng]>;

/** The point `metres` north of another (along a meridian, so the great-circle distance is exact). */
export const northOf = (point: LatLng, metres: number): LatLng => ({
  lat: round6(point.lat + metres / METRES_PER_DEGREE_LAT),
  lng: point.lng,
});

const round6 = (value: number): number => Math.round(value * 1e6) / 1e6;

/** `count` raw stops about 1 km apart, starting somewhere. */
export function rawStops(count: number, start: LatLng = somewhere()): LatLng[] {
  return Array.from({ length: count }, (_, i) => northOf(start, i * 1000));
}

/** The `stops` parameter as a form carries it. */
export const stopsText = (stops: readonly unknown[]): string => JSON.stringify(stops);

export async function givenRoute(user: TestUser, params: Record<string, string | number | undefined> = {}) {
  const res = await api.post('addRoute', { api_key: user.key, route_name: 'Morning run', stops: stopsText(rawStops(3)), ...params });
  expect(res).toBeSuccess();
  const { version: _version, result: _result, error_msg: _error, ...route } = res.body;
  return route;
}

/** The route_uids the vehicle is scheduled onto, read as the schedule is stored. */
export async function scheduledRoutes(vehicleUid: number): Promise<number[]> {
  const items = await queryRange(keys.vehicleScheduleRange(vehicleUid));
  return items.map((item) => Number(item.route_uid));
}
