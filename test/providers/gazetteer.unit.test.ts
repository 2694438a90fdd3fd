import { describe, expect, it } from 'vitest';
import { describeNearTown, largestTownsWithin, nearestTown } from '../../shared/providers/gazetteer.ts';

describe('the offline gazetteer', () => {
  it('names a point by its distance and direction from the nearest town', () => {
    // Prepare: 3 km north-east of Midrand's GeoNames point.
    const midrand = nearestTown({ lat: -25.9992, lng: 28.1263 });
    const point = { lat: midrand!.town.lat + 0.019, lng: midrand!.town.lng + 0.021 };

    // Act
    const near = nearestTown(point);

    // Assess
    expect(near?.town.name).toBe('Midrand');
    expect(describeNearTown(near!)).toBe('3.0 km NE of Midrand, ZA');
  });

  it('names a point at a town centre by the town alone', () => {
    const town = nearestTown({ lat: 51.5074, lng: -0.1278 })!.town;

    expect(describeNearTown(nearestTown(town)!)).toBe(`${town.name}, ${town.country}`);
  });

  it('finds nothing in mid-ocean', () => {
    expect(nearestTown({ lat: -40, lng: -120 })).toBeUndefined();
  });

  it('finds towns on both sides of the antimeridian', () => {
    const near = nearestTown({ lat: -16.8, lng: 179.99 });

    expect(near?.town.country).toBe('FJ');
  });

  it('lists the most populous towns in a box, largest first', () => {
    const towns = largestTownsWithin({ south: -26.5, west: 27.5, north: -25.5, east: 28.5 }, 3);

    const populations = towns.map((town) => town.population);
    expect(towns.map((town) => town.name)[0]).toBe('Johannesburg');
    expect(populations).toHaveLength(3);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });
});
