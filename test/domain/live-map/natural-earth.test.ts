import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type CountriesTopology, naturalEarthPaths } from '../../../shared/domain/live-map/natural-earth.ts';

const atlas = (file: string): CountriesTopology =>
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`world-atlas/${file}`), 'utf8')) as CountriesTopology;

/** Every x and y a path's commands hold. */
const coordinates = (d: string): number[] => [...d.matchAll(/-?\d+(\.\d+)?/g)].map(([number]) => Number(number));

describe('naturalEarthPaths', () => {
  const fine = atlas('countries-50m.json');

  it('clips the land to the picture, so a street zoom holds no coordinates far outside it', () => {
    const { land } = naturalEarthPaths({ centre: { lat: -26, lng: 28.1 }, zoom: 16, width: 600, height: 600 }, fine);
    expect(land).not.toBe('');
    expect(Math.max(...coordinates(land).map(Math.abs))).toBeLessThanOrEqual(604);
  });

  it('draws the borders near Johannesburg at zoom 6 and leaves the land of other continents out', () => {
    const paths = naturalEarthPaths({ centre: { lat: -26.2, lng: 28 }, zoom: 6, width: 600, height: 600 }, fine);
    expect(paths.borders).not.toBe('');
    expect(paths.land.length).toBeLessThan(100_000);
  });

  it('leaves a picture of open ocean without land or borders', () => {
    const paths = naturalEarthPaths({ centre: { lat: -40, lng: -120 }, zoom: 8, width: 300, height: 300 }, atlas('countries-110m.json'));
    expect(paths).toEqual({ land: '', borders: '' });
  });
});
