import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { composeLiveMap, type Geofence } from '../../shared/domain/live-map/live-map.ts';
import type { LinkedVehicle } from '../../shared/domain/vehicle.ts';
import { renderOfflineMap } from '../../shared/providers/offline-map.ts';
import { sfntFromWoff } from '../../shared/providers/svg-png.ts';
import { aLiveState, aVehicle } from '../support/builders.ts';

const parked = (vehicleUid: number, lat: number, lng: number, heading: number | null): LinkedVehicle => ({
  vehicle: { ...aVehicle({ name: `Truck ${vehicleUid}` }), vehicleUid },
  live: aLiveState({ latitude: lat, longitude: lng, heading }),
});

const fleet = [parked(1, -25.9992, 28.1263, 40), parked(2, -26.1015, 28.2308, 270), parked(3, -26.1076, 28.0567, null)];
const zones: Geofence[] = [
  {
    description: 'Client Sandton',
    locationType: 'point',
    latitude: -26.1076,
    longitude: 28.0567,
    radiusKm: 0.4,
    points: [],
    color: 'blue',
  },
];

/** Share of the picture's pixels each distinct colour covers, largest first. */
function colourShares(bytes: Uint8Array): number[] {
  const png = PNG.sync.read(Buffer.from(bytes));
  const counts = new Map<number, number>();
  for (let at = 0; at < png.data.length; at += 4) {
    const colour = png.data.readUInt32BE(at);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  return [...counts.values()].sort((a, b) => b - a).map((count) => count / (png.width * png.height));
}

describe('renderOfflineMap', () => {
  it.each([5, 10, 13, 16])('draws a picture with content at zoom %i: many colours, none filling most of it', async (zoom) => {
    const png = await renderOfflineMap(composeLiveMap({ width: 400, height: 300, zoom }, fleet, zones));
    const decoded = PNG.sync.read(Buffer.from(png));
    expect([decoded.width, decoded.height]).toEqual([400, 300]);
    const shares = colourShares(png);
    // antialiased text and outlines make many intermediate colours
    expect(shares.length).toBeGreaterThan(50);
    expect(shares[0]).toBeLessThan(zoom === 16 ? 0.95 : 0.9);
  });

  it('shows sea and land at a continent zoom', async () => {
    const png = PNG.sync.read(Buffer.from(await renderOfflineMap(composeLiveMap({ width: 400, height: 400, zoom: 4 }, fleet))));
    const colourAt = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    // east of Africa, in the Indian Ocean; and the Kalahari, west of Johannesburg
    expect(colourAt(390, 200)).toEqual([0xaa, 0xd3, 0xdf]);
    expect(colourAt(130, 200)).toEqual([0xf2, 0xef, 0xe9]);
  });
});

describe('sfntFromWoff', () => {
  it('refuses bytes that are not a WOFF font', () => {
    expect(() => sfntFromWoff(new Uint8Array([1, 2, 3, 4, 5]))).toThrow('not a WOFF 1.0 font');
  });
});
