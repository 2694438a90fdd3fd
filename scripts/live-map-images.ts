/**
 * Draws docs/images/live-map-zoom-<z>.png with the offline map: the demo fleet of `npm start` parked at
 * its bases around Johannesburg, plus a second truck beside the first (so a group shows), and the demo's
 * saved places. Run: `npx node scripts/live-map-images.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../infra/api/operation-functions.ts';
import { composeLiveMap, type Geofence } from '../shared/domain/live-map/live-map.ts';
import type { LinkedVehicle } from '../shared/domain/vehicle.ts';
import { renderOfflineMap } from '../shared/providers/offline-map.ts';
import { places } from '../simulator/index.ts';

const place = (name: string) => {
  const found = places.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no demo place ${name}`);
  return found;
};

const parked = (
  vehicleUid: number,
  name: string,
  at: { lat: number; lng: number },
  heading: number | null,
  gpsDatetime: string,
): LinkedVehicle =>
  ({
    vehicle: { vehicleUid, name },
    live: { latitude: at.lat, longitude: at.lng, heading, gpsDatetime },
  }) as LinkedVehicle;

const depot = place('Depot Midrand');
const fleet = [
  parked(1, 'Truck 01', depot, 40, '2026-11-23T05:58:12.000Z'),
  parked(2, 'Van 02', place('Client Kempton Park'), 270, '2026-11-23T06:02:40.000Z'),
  parked(3, 'Bakkie 03', place('Client Sandton'), null, '2026-11-23T05:41:05.000Z'),
  parked(4, 'Truck 04', { lat: depot.lat + 0.00003, lng: depot.lng + 0.00002 }, 180, '2026-11-23T06:04:51.000Z'),
];

const zones: Geofence[] = places.map(
  (candidate): Geofence =>
    candidate.name === 'Depot Midrand'
      ? {
          description: candidate.name,
          locationType: 'polygon',
          latitude: candidate.lat,
          longitude: candidate.lng,
          radiusKm: 0.4,
          color: 'green',
          points: [
            [-1, -1],
            [-1, 1],
            [1, 1],
            [1, -1],
          ].map(([dLat = 0, dLng = 0]) => ({ lat: candidate.lat + dLat * 0.003, lng: candidate.lng + dLng * 0.003 })),
        }
      : {
          description: candidate.name,
          locationType: 'point',
          latitude: candidate.lat,
          longitude: candidate.lng,
          radiusKm: 0.4,
          color: 'blue',
          points: [],
        },
);

for (const zoom of [5, 10, 13, 16]) {
  const png = await renderOfflineMap(composeLiveMap({ width: 600, height: 600, zoom }, fleet, zones));
  const file = join(repositoryRoot, 'docs', 'images', `live-map-zoom-${zoom}.png`);
  writeFileSync(file, png);
  console.log(`${file} ${(png.length / 1024).toFixed(1)} KB`);
}
