/**
 * Natural Earth land and borders (the `world-atlas` TopoJSON) as SVG paths in image pixels. Rings that
 * miss the picture are dropped and points closer than a pixel merged, so a zoom-16 street view carries a
 * few hundred path points, not the whole world.
 */
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Box } from './layout.ts';
import { type Pixel, toImagePixel, type Viewport } from './projection.ts';

export type CountriesTopology = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

export interface NaturalEarthPaths {
  /** the land, one SVG path `d` (even-odd fill) */
  land: string;
  /** borders between countries, one SVG path `d` (stroke only) */
  borders: string;
}

type Position = number[];

const MIN_STEP_PX = 0.75;

/** The paths of the land and the borders that fall in the viewport. */
export function naturalEarthPaths(viewport: Viewport, topology: CountriesTopology): NaturalEarthPaths {
  const land = feature(topology, topology.objects.land);
  const landRings = land.features.flatMap(({ geometry }) =>
    geometry.type === 'Polygon' ? geometry.coordinates : geometry.type === 'MultiPolygon' ? geometry.coordinates.flat() : [],
  );
  const borderLines = mesh(topology, topology.objects.countries, (a, b) => a !== b).coordinates;
  return {
    land: pathOf(viewport, landRings, true),
    borders: pathOf(viewport, borderLines, false),
  };
}

/** The world repeats east and west: at low zooms a picture may show a copy beside the original. */
function worldShifts(viewport: Viewport): number[] {
  const world = 256 * 2 ** viewport.zoom;
  return [-world, 0, world];
}

function pathOf(viewport: Viewport, lines: readonly Position[][], closed: boolean): string {
  const frame: Box = { left: -2, top: -2, right: viewport.width + 2, bottom: viewport.height + 2 };
  const parts: string[] = [];
  for (const line of lines) {
    const pixels = unwrapped(line).map(([lng = 0, lat = 0]) => toImagePixel(viewport, { lat, lng }));
    for (const shift of worldShifts(viewport)) {
      const shifted = pixels.map(({ x, y }) => ({ x: x + shift, y }));
      if (!touches(frame, shifted)) continue;
      parts.push(lineCommands(shifted, closed));
    }
  }
  return parts.join('');
}

/** A ring across the antimeridian (Fiji, Chukotka) continues past ±180° instead of jumping across the world. */
function unwrapped(line: readonly Position[]): Position[] {
  let offset = 0;
  let previous: number | undefined;
  return line.map(([lng = 0, lat = 0]) => {
    if (previous !== undefined && Math.abs(lng + offset - previous) > 180) offset += lng + offset > previous ? -360 : 360;
    previous = lng + offset;
    return [previous, lat];
  });
}

function touches(frame: Box, pixels: readonly Pixel[]): boolean {
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (const { x, y } of pixels) {
    left = Math.min(left, x); right = Math.max(right, x);
    top = Math.min(top, y); bottom = Math.max(bottom, y);
  }
  return left <= frame.right && right >= frame.left && top <= frame.bottom && bottom >= frame.top;
}

const coordinate = (value: number): string => String(Math.round(value * 10) / 10);

function lineCommands([first, ...rest]: readonly Pixel[], closed: boolean): string {
  if (!first) return '';
  let last = first;
  let commands = `M${coordinate(last.x)} ${coordinate(last.y)}`;
  for (const pixel of rest) {
    if (Math.abs(pixel.x - last.x) < MIN_STEP_PX && Math.abs(pixel.y - last.y) < MIN_STEP_PX) continue;
    commands += `L${coordinate(pixel.x)} ${coordinate(pixel.y)}`;
    last = pixel;
  }
  return closed ? `${commands}Z` : commands;
}
