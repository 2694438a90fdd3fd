import { describe, expect, it } from 'vitest';
import { composeLiveMap } from '../../shared/domain/live-map/live-map.ts';
import type { LinkedVehicle } from '../../shared/domain/vehicle.ts';
import { googleStaticMapUrl, isPng } from '../../shared/providers/google-static-maps.ts';
import { aLiveState, aVehicle } from '../support/builders.ts';

const linked = (vehicleUid: number, lat: number, lng: number): LinkedVehicle => ({
  vehicle: { ...aVehicle(), vehicleUid },
  live: aLiveState({ latitude: lat, longitude: lng }),
});

describe('googleStaticMapUrl', () => {
  it('asks for the size, zoom, centre, a roadmap PNG, one labelled marker per vehicle, then the key', () => {
    // Prepare
    const map = composeLiveMap({ width: 640, height: 480, zoom: 11 }, [linked(1, -26.2041, 28.0473), linked(2, -26.1, 28.123456789)]);
    // Act
    const url = googleStaticMapUrl('https://maps.googleapis.com/maps/api/staticmap', map, 'MAP-KEY');
    // Assess
    expect(url.origin + url.pathname).toBe('https://maps.googleapis.com/maps/api/staticmap');
    expect([...url.searchParams]).toEqual([
      ['size', '640x480'],
      ['zoom', '11'],
      ['center', '-26.15205,28.085378'],
      ['maptype', 'roadmap'],
      ['format', 'png'],
      ['markers', 'color:red|label:A|-26.2041,28.0473'],
      ['markers', 'color:red|label:B|-26.1,28.123457'],
      ['key', 'MAP-KEY'],
    ]);
    expect(url.search).toContain('markers=color%3Ared%7Clabel%3AA%7C-26.2041%2C28.0473');
  });

  it('leaves the label out for vehicles beyond the 36 labels', () => {
    const vehicles = Array.from({ length: 37 }, (_, index) => linked(index + 1, 0, index / 1000));
    const url = googleStaticMapUrl('http://127.0.0.1:9/staticmap', composeLiveMap({ width: 1, height: 1, zoom: 1 }, vehicles), 'k');
    expect(url.searchParams.getAll('markers').at(-1)).toBe('color:red|0,0.036');
  });

  it("stays within Google's 16 384-character URL limit at the most vehicles a map may show", () => {
    const vehicles = Array.from({ length: 250 }, (_, index) => linked(index + 1, -89.123456 + index / 1e6, -179.123456 + index / 1e6));
    const map = composeLiveMap({ width: 640, height: 640, zoom: 20 }, vehicles);
    expect(googleStaticMapUrl('https://maps.googleapis.com/maps/api/staticmap', map, 'k'.repeat(512)).href.length).toBeLessThanOrEqual(
      16_384,
    );
  });
});

describe('isPng', () => {
  it('knows a PNG by its signature', () => {
    expect(isPng(new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0]))).toBe(true);
    expect(isPng(new TextEncoder().encode('<html>error</html>'))).toBe(false);
    expect(isPng(new Uint8Array())).toBe(false);
  });
});
