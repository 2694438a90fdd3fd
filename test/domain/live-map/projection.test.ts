import { describe, expect, it } from 'vitest';
import {
  fromImagePixel,
  fromWorldPixel,
  MAX_LATITUDE,
  metresPerPixel,
  tilesCovering,
  toImagePixel,
  toWorldPixel,
} from '../../../shared/domain/live-map/projection.ts';

const johannesburg = { lat: -26.2041, lng: 28.0473 };

describe('Web Mercator', () => {
  it('puts 0°,0° in the middle of the world square and its corners at the edges', () => {
    expect(toWorldPixel({ lat: 0, lng: 0 }, 1)).toEqual({ x: 256, y: 256 });
    expect(toWorldPixel({ lat: MAX_LATITUDE, lng: -180 }, 0).x).toBe(0);
    expect(toWorldPixel({ lat: MAX_LATITUDE, lng: -180 }, 0).y).toBeCloseTo(0, 6);
    expect(toWorldPixel({ lat: -MAX_LATITUDE, lng: 180 }, 0).y).toBeCloseTo(256, 6);
  });

  it('keeps the poles on the square instead of at infinity', () => {
    expect(toWorldPixel({ lat: 90, lng: 0 }, 3)).toEqual(toWorldPixel({ lat: MAX_LATITUDE, lng: 0 }, 3));
  });

  it.each([1, 5, 13, 20])('finds the same position back from its pixel at zoom %i', (zoom) => {
    const back = fromWorldPixel(toWorldPixel(johannesburg, zoom), zoom);
    expect(back.lat).toBeCloseTo(johannesburg.lat, 9);
    expect(back.lng).toBeCloseTo(johannesburg.lng, 9);
  });

  it('doubles the distance in pixels with each zoom level', () => {
    const a = toWorldPixel(johannesburg, 12);
    const b = toWorldPixel(johannesburg, 13);
    expect(b.x / a.x).toBeCloseTo(2, 12);
    expect(b.y / a.y).toBeCloseTo(2, 12);
  });

  it('gives the ground resolution Google documents for the equator (about 156 km per pixel at zoom 0)', () => {
    expect(metresPerPixel(0, 0)).toBeCloseTo(156_543.03, 1);
    expect(metresPerPixel(60, 1)).toBeCloseTo(156_543.03 / 4, 1);
  });
});

describe('a viewport', () => {
  const viewport = { centre: johannesburg, zoom: 13, width: 600, height: 400 };

  it('shows its centre in the middle of the picture', () => {
    expect(toImagePixel(viewport, johannesburg)).toEqual({ x: 300, y: 200 });
  });

  it('puts positions north-east of the centre up and to the right', () => {
    const pixel = toImagePixel(viewport, { lat: johannesburg.lat + 0.01, lng: johannesburg.lng + 0.01 });
    expect(pixel.x).toBeGreaterThan(300);
    expect(pixel.y).toBeLessThan(200);
  });

  it('maps picture pixels back to the positions that project onto them', () => {
    const corner = fromImagePixel(viewport, { x: 0, y: 0 });
    const pixel = toImagePixel(viewport, corner);
    expect(pixel.x).toBeCloseTo(0, 6);
    expect(pixel.y).toBeCloseTo(0, 6);
  });
});

describe('tilesCovering', () => {
  it('lists the tiles under the picture row by row, each placed where its corner falls', () => {
    // zoom 2: a 1024-pixel world of 4 × 4 tiles; the picture's middle is the world's
    const tiles = tilesCovering({ centre: { lat: 0, lng: 0 }, zoom: 2, width: 300, height: 200 });
    expect(tiles.map(({ x, y }) => `${x}/${y}`)).toEqual(['1/1', '2/1', '1/2', '2/2']);
    expect(tiles[0]?.at).toEqual({ x: -106, y: -156 });
    expect(tiles.every((tile) => tile.z === 2)).toBe(true);
  });

  it('wraps columns around the antimeridian and stops rows at the poles', () => {
    const tiles = tilesCovering({ centre: { lat: 80, lng: 179.9 }, zoom: 1, width: 600, height: 600 });
    expect(new Set(tiles.map(({ x }) => x))).toEqual(new Set([0, 1]));
    expect(tiles.every(({ y }) => y >= 0 && y <= 1)).toBe(true);
  });
});
