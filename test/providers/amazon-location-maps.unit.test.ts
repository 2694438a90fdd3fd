import { describe, expect, it } from 'vitest';
import { composeLiveMap } from '../../shared/domain/live-map/live-map.ts';
import type { LinkedVehicle } from '../../shared/domain/vehicle.ts';
import { vehiclesOverlay } from '../../shared/providers/amazon-location-maps.ts';
import { aLiveState, aVehicle } from '../support/builders.ts';

const linked = (vehicleUid: number, lat: number, lng: number): LinkedVehicle => ({
  vehicle: { ...aVehicle({ name: `Long haul truck number ${vehicleUid}` }), vehicleUid },
  live: aLiveState({ latitude: lat, longitude: lng }),
});

describe('vehiclesOverlay', () => {
  it("labels each vehicle while the overlay stays within GetStaticMap's 4,200 characters", () => {
    const map = composeLiveMap({ width: 600, height: 600, zoom: 5 }, [linked(1, -26.2, 28.04), linked(2, -26.1, 28.12)]);
    const overlay = JSON.parse(vehiclesOverlay(map));
    expect(overlay.features.map((feature: { properties: { label: string } }) => feature.properties.label)).toEqual([
      'Long haul truck number 1',
      'Long haul truck number 2',
    ]);
  });

  it('falls back to one unlabelled MultiPoint of every vehicle when labels would pass the limit', () => {
    const vehicles = Array.from({ length: 80 }, (_, index) => linked(index + 1, -26 + index / 1000, 28 + index / 1000));
    const overlay = vehiclesOverlay(composeLiveMap({ width: 600, height: 600, zoom: 5 }, vehicles));
    expect(overlay.length).toBeLessThanOrEqual(4200);
    const parsed = JSON.parse(overlay);
    expect(parsed.features).toHaveLength(1);
    expect(parsed.features[0].geometry.type).toBe('MultiPoint');
    expect(parsed.features[0].geometry.coordinates).toHaveLength(80);
  });
});
