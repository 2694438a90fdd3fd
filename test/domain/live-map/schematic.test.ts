import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pixelAt } from '../../../shared/domain/live-map/canvas.ts';
import { composeLiveMap, type Geofence } from '../../../shared/domain/live-map/live-map.ts';
import { toImagePixel } from '../../../shared/domain/live-map/projection.ts';
import { BACKGROUND, drawSchematicMap, MARKER_COLOR, renderSchematicMap } from '../../../shared/domain/live-map/schematic.ts';
import type { LinkedVehicle } from '../../../shared/domain/vehicle.ts';
import { aLiveState, aVehicle } from '../../support/builders.ts';

const linked = (vehicleUid: number, lat: number, lng: number, name = 'Truck 7'): LinkedVehicle => ({
  vehicle: { ...aVehicle({ name }), vehicleUid },
  live: aLiveState({ latitude: lat, longitude: lng }),
});

const depot = { lat: -26.2041, lng: 28.0473 };

describe('the schematic map', () => {
  it('is a PNG of the requested width and height', () => {
    const png = PNG.sync.read(Buffer.from(renderSchematicMap(composeLiveMap({ width: 320, height: 200, zoom: 13 }, [linked(1, depot.lat, depot.lng)]))));
    expect([png.width, png.height]).toEqual([320, 200]);
  });

  it.each([
    [600, 600],
    [601, 399],
    [1, 1],
  ])('puts a single vehicle\'s marker on the centre pixel of a %i×%i map', (width, height) => {
    const canvas = drawSchematicMap(composeLiveMap({ width, height, zoom: 13 }, [linked(1, depot.lat, depot.lng)]));
    expect(pixelAt(canvas, Math.floor(width / 2), Math.floor(height / 2))).toEqual(MARKER_COLOR);
  });

  it('puts each vehicle\'s marker at its projected position', () => {
    const map = composeLiveMap({ width: 600, height: 600, zoom: 13 }, [linked(1, -26.21, 28.03), linked(2, -26.19, 28.06)]);
    const canvas = drawSchematicMap(map);
    for (const vehicle of map.vehicles) {
      const { x, y } = toImagePixel(map, vehicle.position);
      expect(pixelAt(canvas, Math.floor(x), Math.floor(y))).toEqual(MARKER_COLOR);
    }
  });

  it('writes the vehicle\'s name to the right of its marker', () => {
    const withName = drawSchematicMap(composeLiveMap({ width: 300, height: 300, zoom: 13 }, [linked(1, depot.lat, depot.lng, 'WWWW')]));
    const without = drawSchematicMap(composeLiveMap({ width: 300, height: 300, zoom: 13 }, [linked(1, depot.lat, depot.lng, ' ')]));
    const darkRightOfMarker = (canvas: typeof withName) =>
      Array.from({ length: 60 }, (_, dx) => pixelAt(canvas, 162 + dx, 150)).filter(([r]) => r < 100).length;
    expect(darkRightOfMarker(withName)).toBeGreaterThan(5);
    expect(darkRightOfMarker(without)).toBe(0);
  });

  it('draws point geofences as circles of their radius in km and polygons from their vertices', () => {
    // 1 km at zoom 13 near Johannesburg is about 59 px.
    const point: Geofence = { locationType: 'point', latitude: depot.lat, longitude: depot.lng, radiusKm: 1, points: [], color: '#00ff00' };
    const polygon: Geofence = {
      locationType: 'polygon', latitude: 0, longitude: 0, radiusKm: 1, color: '#0000ff',
      points: [{ lat: -26.195, lng: 28.055 }, { lat: -26.195, lng: 28.06 }, { lat: -26.2, lng: 28.06 }],
    };
    const map = composeLiveMap({ width: 600, height: 600, zoom: 13 }, [linked(1, depot.lat, depot.lng)], [point, polygon]);
    const canvas = drawSchematicMap(map);
    const edge = toImagePixel(map, { lat: depot.lat, lng: depot.lng - 1 / (111.32 * Math.cos((depot.lat * Math.PI) / 180)) });
    expect(pixelAt(canvas, Math.round(edge.x), Math.floor(edge.y))).toEqual([0, 255, 0]);
    const vertex = toImagePixel(map, { lat: -26.195, lng: 28.055 });
    expect(pixelAt(canvas, Math.floor(vertex.x) + 3, Math.floor(vertex.y))).toEqual([0, 0, 255]);
    const inside = toImagePixel(map, { lat: depot.lat, lng: depot.lng - 0.005 });
    const tinted = pixelAt(canvas, Math.floor(inside.x), Math.floor(inside.y) + 20);
    expect(tinted).not.toEqual(BACKGROUND);
    expect(tinted[1]).toBeGreaterThan(tinted[0]);
  });

  it('draws a graticule on the light background', () => {
    const canvas = drawSchematicMap(composeLiveMap({ width: 600, height: 600, zoom: 13 }, [linked(1, depot.lat, depot.lng)]));
    const row = Array.from({ length: 600 }, (_, x) => pixelAt(canvas, x, 5));
    const lines = row.filter((pixel) => pixel.join() !== BACKGROUND.join()).length;
    expect(lines).toBeGreaterThanOrEqual(2);
    expect(lines).toBeLessThan(20);
  });
});
