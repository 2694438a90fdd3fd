import { describe, expect, it } from 'vitest';
import {
  type LocationDetails,
  locationChanges,
  locationContains,
  mostSpecificLocationAt,
  newLocation,
  POINTS_REQUIRED,
  pointsText,
  polygonVertices,
  zoneAreaKm2,
} from '../../shared/domain/user-location.ts';
import { BadRequest } from '../../shared/errors.ts';

const depot = { lat: -26.2041, lng: 28.0473 };

const point = (overrides: Partial<LocationDetails> = {}): LocationDetails => ({
  ...newLocation({ description: 'Depot', latitude: depot.lat, longitude: depot.lng }),
  ...overrides,
});

/** An L-shaped yard: its notch is inside the bounding box but outside the polygon. */
const lShape = [
  { lat: 0, lng: 0 },
  { lat: 0, lng: 2 },
  { lat: 1, lng: 2 },
  { lat: 1, lng: 1 },
  { lat: 2, lng: 1 },
  { lat: 2, lng: 0 },
];
const polygon = (points = lShape): LocationDetails => point({ locationType: 'polygon', points, latitude: 0.5, longitude: 0.5 });

describe('locationContains for a point', () => {
  it('contains a position within the radius in km', () => {
    // ~0.9 km north of the depot
    expect(locationContains(point({ radiusKm: 1 }), { lat: depot.lat + 0.008, lng: depot.lng })).toBe(true);
  });

  it('does not contain a position beyond the radius', () => {
    // ~1.1 km north of the depot
    expect(locationContains(point({ radiusKm: 1 }), { lat: depot.lat + 0.01, lng: depot.lng })).toBe(false);
  });

  it('contains its own centre however small the radius', () => {
    expect(locationContains(point({ radiusKm: 0.001 }), depot)).toBe(true);
  });

  it('ignores stray vertices on a point', () => {
    expect(locationContains(point({ points: lShape }), depot)).toBe(true);
  });
});

describe('locationContains for a polygon', () => {
  it('contains a position inside the polygon', () => {
    expect(locationContains(polygon(), { lat: 0.5, lng: 1.5 })).toBe(true);
    expect(locationContains(polygon(), { lat: 1.5, lng: 0.5 })).toBe(true);
  });

  it('does not contain a position in the notch of a concave polygon', () => {
    expect(locationContains(polygon(), { lat: 1.5, lng: 1.5 })).toBe(false);
  });

  it('does not contain a position outside, whatever the radius says', () => {
    expect(locationContains(polygon(), { lat: -0.5, lng: 0.5 })).toBe(false);
    expect(locationContains({ ...polygon(), radiusKm: 20_000 }, { lat: 3, lng: 3 })).toBe(false);
  });

  it('works on real coordinates south of the equator and east of Greenwich', () => {
    const yard = polygon([
      { lat: -26.19, lng: 28.03 },
      { lat: -26.19, lng: 28.06 },
      { lat: -26.22, lng: 28.06 },
      { lat: -26.22, lng: 28.03 },
    ]);
    expect(locationContains(yard, depot)).toBe(true);
    expect(locationContains(yard, { lat: -26.18, lng: 28.0473 })).toBe(false);
  });
});

describe('mostSpecificLocationAt', () => {
  it('answers the smallest containing zone, whichever was saved first', () => {
    const far = point({ description: 'Far', latitude: 10, longitude: 10 });
    const yard = { ...polygon(), description: 'Yard' };
    const wide = point({ description: 'Wide', latitude: 0.5, longitude: 0.5, radiusKm: 500 });
    expect(mostSpecificLocationAt([far, yard, wide], { lat: 0.5, lng: 0.5 })?.description).toBe('Yard');
    expect(mostSpecificLocationAt([far, wide, yard], { lat: 0.5, lng: 0.5 })?.description).toBe('Yard');
  });

  it("compares a point's disc with a polygon's area", () => {
    // the L-shaped yard is 3 square degrees, about 37,000 km² at the equator: a 100 km disc (31,400 km²) is smaller
    const yard = { ...polygon(), description: 'Yard' };
    const disc = point({ description: 'Disc', latitude: 0.5, longitude: 0.5, radiusKm: 100 });
    const bigger = point({ description: 'Bigger', latitude: 0.5, longitude: 0.5, radiusKm: 110 });
    expect(mostSpecificLocationAt([yard, disc], { lat: 0.5, lng: 0.5 })?.description).toBe('Disc');
    expect(mostSpecificLocationAt([bigger, yard], { lat: 0.5, lng: 0.5 })?.description).toBe('Yard');
  });

  it('gives a tie in size to the nearest centre, then to the order given', () => {
    const west = point({ description: 'West', latitude: depot.lat, longitude: depot.lng - 0.002 });
    const east = point({ description: 'East', latitude: depot.lat, longitude: depot.lng + 0.001 });
    const twin = point({ description: 'Twin', latitude: depot.lat, longitude: depot.lng + 0.001 });
    expect(mostSpecificLocationAt([west, east, twin], depot)?.description).toBe('East');
    expect(mostSpecificLocationAt([twin, east, west], depot)?.description).toBe('Twin');
  });

  it('answers undefined when no location contains the position', () => {
    expect(mostSpecificLocationAt([point()], { lat: 0, lng: 0 })).toBeUndefined();
    expect(mostSpecificLocationAt([], depot)).toBeUndefined();
  });
});

describe('zoneAreaKm2', () => {
  it('measures a disc and a polygon in km²', () => {
    expect(zoneAreaKm2(point({ radiusKm: 2 }))).toBeCloseTo(Math.PI * 4, 6);
    const square = polygon([
      { lat: 0, lng: 0 },
      { lat: 0, lng: 1 },
      { lat: 1, lng: 1 },
      { lat: 1, lng: 0 },
    ]);
    expect(zoneAreaKm2(square)).toBeGreaterThan(12_300);
    expect(zoneAreaKm2(square)).toBeLessThan(12_400);
  });
});

describe('polygonVertices', () => {
  it('reads JSON text and arrays alike, keeping only lat and lng', () => {
    const text = '[{"lat":1,"lng":2,"name":"a"},{"lat":3,"lng":4},{"lat":5,"lng":6}]';
    const expected = [
      { lat: 1, lng: 2 },
      { lat: 3, lng: 4 },
      { lat: 5, lng: 6 },
    ];
    expect(polygonVertices(text)).toEqual(expected);
    expect(polygonVertices(JSON.parse(text))).toEqual(expected);
    expect(pointsText(polygonVertices(text))).toBe('[{"lat":1,"lng":2},{"lat":3,"lng":4},{"lat":5,"lng":6}]');
  });

  it.each([undefined, '', 'not json', '{"lat":1,"lng":2}', '[]', '[{"lat":1,"lng":2},{"lat":3,"lng":4}]', 7])(
    'refuses %j with the points message',
    (points) => {
      expect(() => polygonVertices(points)).toThrow(new BadRequest(POINTS_REQUIRED));
    },
  );

  it('names the first vertex that is not a numeric lat/lng pair, counting from 1', () => {
    expect(() =>
      polygonVertices([
        { lat: 1, lng: 2 },
        { lat: '3', lng: 4 },
        { lat: 5, lng: 6 },
      ]),
    ).toThrow('points vertex 2 must be an object with numeric lat and lng');
    expect(() => polygonVertices([{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }, null])).toThrow(
      'points vertex 3 must be an object with numeric lat and lng',
    );
  });

  it('names the first vertex out of range', () => {
    expect(() =>
      polygonVertices([
        { lat: 1, lng: 2 },
        { lat: 91, lng: 4 },
        { lat: 5, lng: 181 },
      ]),
    ).toThrow('points vertex 2 is out of range');
    expect(() =>
      polygonVertices([
        { lat: 1, lng: 2 },
        { lat: 3, lng: 4 },
        { lat: 5, lng: -180.5 },
      ]),
    ).toThrow('points vertex 3 is out of range');
  });

  it('refuses more than 1000 vertices', () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ lat: i / 100, lng: 0 }));
    expect(() => polygonVertices(many)).toThrow('points may have at most 1000 vertices');
  });
});

describe('newLocation', () => {
  it('fills the defaults of the spec', () => {
    expect(newLocation({ description: 'Depot', latitude: 1, longitude: 2 })).toEqual({
      description: 'Depot',
      latitude: 1,
      longitude: 2,
      icon: '',
      color: 'blue',
      radiusKm: 1,
      locationType: 'point',
      points: [],
      speedLimit: 0,
      noGo: false,
      onlyPush: false,
    });
  });

  it('drops vertices given for a point', () => {
    expect(newLocation({ description: 'D', latitude: 1, longitude: 2, points: lShape }).points).toEqual([]);
  });

  it('takes a blank colour as the default', () => {
    expect(newLocation({ description: 'D', latitude: 1, longitude: 2, color: '' }).color).toBe('blue');
  });
});

describe('locationChanges', () => {
  it('changes nothing for no parameters', () => {
    expect(Object.values(locationChanges(polygon(), {})).filter((value) => value !== undefined)).toEqual([]);
  });

  it('keeps the stored vertices when a polygon stays a polygon without new points', () => {
    expect(locationChanges(polygon(), { location_type: 'polygon' })).not.toHaveProperty('points', expect.anything());
  });

  it('clears the vertices when a polygon becomes a point', () => {
    expect(locationChanges(polygon(), { location_type: 'point' })).toMatchObject({ locationType: 'point', points: [] });
  });

  it('refuses to make a point a polygon without vertices', () => {
    expect(() => locationChanges(point(), { location_type: 'polygon' })).toThrow(POINTS_REQUIRED);
  });

  it('writes the type with new vertices of a polygon, so the two never disagree', () => {
    expect(locationChanges(polygon(), { points: lShape.slice(0, 3) })).toMatchObject({
      locationType: 'polygon',
      points: lShape.slice(0, 3),
    });
  });

  it('ignores vertices sent for a point that stays a point', () => {
    const changes = locationChanges(point(), { points: lShape });
    expect(changes.points).toBeUndefined();
    expect(changes.locationType).toBeUndefined();
  });
});
