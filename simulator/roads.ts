/** Roads between the places: seeded bends, traffic lights and speed limits, the same road every day. */
import { distanceKm, type LatLng, roundTo } from '../shared/domain/geo.ts';
import type { Place } from './places.ts';
import { gaussian, hash, pick, prng, uniform } from './random.ts';

export const M_PER_DEG_LAT = 110_574;

/** The point seen `northM` and `eastM` metres away from where it is (a GPS error). */
export const displaced = (point: LatLng, { northM, eastM }: { northM: number; eastM: number }): LatLng => ({
  lat: point.lat + northM / M_PER_DEG_LAT,
  lng: point.lng + eastM / (M_PER_DEG_LAT * Math.cos(point.lat * (Math.PI / 180))),
});

export interface Limit {
  fromM: number;
  kmh: number;
}

export interface Road {
  points: LatLng[];
  /** metres from the start to each point */
  cumM: number[];
  headings: number[];
  lengthM: number;
  /** traffic lights, metres from the start */
  lights: number[];
  /** where the vehicle stops to turn round, metres from the start */
  turns?: number[];
  limits: Limit[];
}

const roads = new Map<string, Road>();

/**
 * The road between two places: always the same for a pair (seeded by the names, whatever the day's seed),
 * driven the other way back. Bends from midpoint displacement, rounded by corner cutting; speed limits by section.
 */
export function road(from: Place, to: Place): Road {
  const key = `${from.name}|${to.name}`;
  const known = roads.get(key);
  if (known) return known;
  // Built in one canonical direction, so the road never depends on which way was asked for first.
  const built = from.name < to.name ? buildRoad(from, to) : reversed(road(to, from));
  roads.set(key, built);
  return built;
}

function buildRoad(from: Place, to: Place): Road {
  const random = prng(hash(`${from.name}|${to.name}`));
  const cosLat = Math.cos(from.lat * (Math.PI / 180));
  const toXY = (p: LatLng) => ({ x: (p.lng - from.lng) * M_PER_DEG_LAT * cosLat, y: (p.lat - from.lat) * M_PER_DEG_LAT });
  let xy = [toXY(from), toXY(to)];
  for (let depth = 0; depth < 5; depth++) {
    xy = xy.flatMap((p, i) => {
      const q = xy[i + 1];
      if (!q) return [p];
      const offset = gaussian(random) * 0.12;
      return [p, { x: (p.x + q.x) / 2 - (q.y - p.y) * offset, y: (p.y + q.y) / 2 + (q.x - p.x) * offset }];
    });
  }
  for (let pass = 0; pass < 2; pass++) {
    xy = [
      xy[0] as { x: number; y: number },
      ...xy.slice(0, -1).flatMap((p, i) => {
        const q = xy[i + 1] as { x: number; y: number };
        return [
          { x: 0.75 * p.x + 0.25 * q.x, y: 0.75 * p.y + 0.25 * q.y },
          { x: 0.25 * p.x + 0.75 * q.x, y: 0.25 * p.y + 0.75 * q.y },
        ];
      }),
      xy.at(-1) as { x: number; y: number },
    ];
  }
  const points = xy.map((p) => ({
    lat: roundTo(from.lat + p.y / M_PER_DEG_LAT, 7),
    lng: roundTo(from.lng + p.x / (M_PER_DEG_LAT * cosLat), 7),
  }));
  const geometry = measure(points);
  const lights: number[] = [];
  for (let atM = uniform(random, 400, 1500); atM < geometry.lengthM - 400; atM += uniform(random, 700, 2500)) lights.push(atM);
  const limits: Limit[] = [{ fromM: 0, kmh: 60 }];
  for (let fromM = 1000; fromM < geometry.lengthM - 1000; fromM += uniform(random, 1500, 3500)) {
    limits.push({ fromM, kmh: pick(random, geometry.lengthM > 12_000 ? [60, 70, 80, 80, 100, 100] : [60, 60, 70, 80]) });
  }
  limits.push({ fromM: Math.max(geometry.lengthM - 1000, (limits.at(-1) as Limit).fromM + 1), kmh: 50 });
  return { ...geometry, lights, limits };
}

/**
 * Out `lengthM` / 2 along the road from `from` toward `toward`, then back the same way to exactly `from` (a U-turn at
 * the far end): a round trip of `lengthM` that starts and ends at one spot.
 */
export function outAndBack(from: Place, toward: Place, lengthM: number): Road {
  const full = road(from, toward);
  const halfM = Math.min(lengthM / 2, full.lengthM);
  const last = full.cumM.findIndex((m) => m >= halfM);
  const out = [...full.points.slice(0, last), along(full, last - 1, halfM)];
  const geometry = measure([...out, ...out.slice(0, -1).reverse()]);
  const lights = full.lights.filter((atM) => atM < halfM - 100);
  const back = lights.map((atM) => geometry.lengthM - atM).reverse();
  return { ...geometry, lights: [...lights, ...back], turns: [halfM], limits: [{ fromM: 0, kmh: 50 }] };
}

function reversed(road: Road): Road {
  const { lengthM } = road;
  const ends = road.limits.map((limit, i) => ({ kmh: limit.kmh, fromM: lengthM - (road.limits[i + 1]?.fromM ?? lengthM) }));
  return { ...measure([...road.points].reverse()), lights: road.lights.map((atM) => lengthM - atM).reverse(), limits: ends.reverse() };
}

function measure(points: LatLng[]): Pick<Road, 'points' | 'cumM' | 'headings' | 'lengthM'> {
  const cumM = [0];
  const headings: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as LatLng;
    const b = points[i] as LatLng;
    cumM.push((cumM[i - 1] as number) + distanceKm(a, b) * 1000);
    headings.push(bearing(a, b));
  }
  return { points, cumM, headings, lengthM: cumM.at(-1) as number };
}

export function along(road: Road, segment: number, s: number): LatLng {
  const a = road.points[segment] as LatLng;
  const b = road.points[segment + 1] as LatLng;
  const start = road.cumM[segment] as number;
  const f = Math.min(1, Math.max(0, (s - start) / ((road.cumM[segment + 1] as number) - start)));
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f };
}

function bearing(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b.lng - a.lng) * rad) * Math.cos(b.lat * rad);
  const x = Math.cos(a.lat * rad) * Math.sin(b.lat * rad) - Math.sin(a.lat * rad) * Math.cos(b.lat * rad) * Math.cos((b.lng - a.lng) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}

export const angleBetween = (a: number, b: number): number => ((a - b + 540) % 360) - 180;
