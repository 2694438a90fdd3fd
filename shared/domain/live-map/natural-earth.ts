/**
 * Natural Earth land and borders (the `world-atlas` TopoJSON) as SVG paths in image pixels. Rings that
 * miss the picture are dropped and points closer than a pixel merged, so a zoom-16 street view carries a
 * few hundred path points, not the whole world.
 */
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Box } from './layout.ts';
import { fromImagePixel, type Pixel, toImagePixel, type Viewport } from './projection.ts';

export type CountriesTopology = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

export interface NaturalEarthPaths {
  /** the land, one SVG path `d` (even-odd fill) */
  land: string;
  /** borders between countries, one SVG path `d` (stroke only) */
  borders: string;
}

type Position = number[];

const MIN_STEP_PX = 0.75;

interface Line {
  /** longitude/latitude pairs, unwrapped across the antimeridian */
  points: Position[];
  west: number;
  east: number;
  south: number;
  north: number;
}

interface DecodedAtlas {
  landRings: Line[];
  borderLines: Line[];
}

/** Decoding TopoJSON and meshing the borders is the costly part: done once per atlas and container. */
const decoded = new WeakMap<CountriesTopology, DecodedAtlas>();

function decode(topology: CountriesTopology): DecodedAtlas {
  let atlas = decoded.get(topology);
  if (!atlas) {
    const land = feature(topology, topology.objects.land);
    const rings = land.features.flatMap(({ geometry }) =>
      geometry.type === 'Polygon' ? geometry.coordinates : geometry.type === 'MultiPolygon' ? geometry.coordinates.flat() : [],
    );
    const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b).coordinates;
    atlas = { landRings: rings.map(lineOf), borderLines: borders.map(lineOf) };
    decoded.set(topology, atlas);
  }
  return atlas;
}

function lineOf(coordinates: readonly Position[]): Line {
  const points = unwrapped(coordinates);
  const lngs = points.map(([lng = 0]) => lng);
  const lats = points.map(([, lat = 0]) => lat);
  return { points, west: Math.min(...lngs), east: Math.max(...lngs), south: Math.min(...lats), north: Math.max(...lats) };
}

/** The paths of the land and the borders that fall in the viewport. */
export function naturalEarthPaths(viewport: Viewport, topology: CountriesTopology): NaturalEarthPaths {
  const { landRings, borderLines } = decode(topology);
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

/** Pixels beyond the picture's edge that clipped shapes keep, so their outlines stay out of sight. */
const CLIP_MARGIN_PX = 4;

function pathOf(viewport: Viewport, lines: readonly Line[], closed: boolean): string {
  const frame: Box = {
    left: -CLIP_MARGIN_PX,
    top: -CLIP_MARGIN_PX,
    right: viewport.width + CLIP_MARGIN_PX,
    bottom: viewport.height + CLIP_MARGIN_PX,
  };
  const north = fromImagePixel(viewport, { x: 0, y: frame.top }).lat;
  const south = fromImagePixel(viewport, { x: 0, y: frame.bottom }).lat;
  const parts: string[] = [];
  for (const shift of worldShifts(viewport)) {
    const west = fromImagePixel(viewport, { x: frame.left - shift, y: 0 }).lng;
    const east = fromImagePixel(viewport, { x: frame.right - shift, y: 0 }).lng;
    for (const line of lines) {
      // Cheap test in degrees first: most of the world is nowhere near the picture.
      if (line.east < west || line.west > east || line.north < south || line.south > north) continue;
      const pixels = line.points.map(([lng = 0, lat = 0]) => {
        const { x, y } = toImagePixel(viewport, { lat, lng });
        return { x: x + shift, y };
      });
      if (closed) parts.push(lineCommands(clipRing(pixels, frame), true));
      else for (const run of visibleRuns(pixels, frame)) parts.push(lineCommands(run, false));
    }
  }
  return parts.join('');
}

/**
 * Sutherland–Hodgman: the ring cut to the frame, edge by edge. Land several thousand pixels across at
 * zoom 16 becomes a frame-sized polygon instead of coordinates in the millions.
 */
function clipRing(ring: readonly Pixel[], frame: Box): Pixel[] {
  const edges: { inside: (p: Pixel) => boolean; cross: (a: Pixel, b: Pixel) => Pixel }[] = [
    { inside: (p) => p.x >= frame.left, cross: (a, b) => atX(a, b, frame.left) },
    { inside: (p) => p.x <= frame.right, cross: (a, b) => atX(a, b, frame.right) },
    { inside: (p) => p.y >= frame.top, cross: (a, b) => atY(a, b, frame.top) },
    { inside: (p) => p.y <= frame.bottom, cross: (a, b) => atY(a, b, frame.bottom) },
  ];
  let output = [...ring];
  for (const { inside, cross } of edges) {
    const input = output;
    output = [];
    input.forEach((current, index) => {
      const previous = input[(index + input.length - 1) % input.length] as Pixel;
      if (inside(current)) {
        if (!inside(previous)) output.push(cross(previous, current));
        output.push(current);
      } else if (inside(previous)) {
        output.push(cross(previous, current));
      }
    });
  }
  return output;
}

const atX = (a: Pixel, b: Pixel, x: number): Pixel => ({ x, y: a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x) });
const atY = (a: Pixel, b: Pixel, y: number): Pixel => ({ x: a.x + ((b.x - a.x) * (y - a.y)) / (b.y - a.y), y });

/** The stretches of a line whose segments come near the frame (a border crossing the picture). */
function visibleRuns(points: readonly Pixel[], frame: Box): Pixel[][] {
  const runs: Pixel[][] = [];
  let run: Pixel[] = [];
  points.forEach((point, index) => {
    const next = points[index + 1];
    const segmentVisible =
      next !== undefined &&
      Math.max(point.x, next.x) >= frame.left &&
      Math.min(point.x, next.x) <= frame.right &&
      Math.max(point.y, next.y) >= frame.top &&
      Math.min(point.y, next.y) <= frame.bottom;
    if (segmentVisible) {
      if (run.length === 0) run.push(point);
      run.push(next);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length > 0) runs.push(run);
  return runs;
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

const coordinate = (value: number): string => String(Math.round(value * 10) / 10);

function lineCommands([first, ...rest]: readonly Pixel[], closed: boolean): string {
  if (!first || rest.length === 0) return '';
  let last = first;
  let commands = `M${coordinate(last.x)} ${coordinate(last.y)}`;
  for (const pixel of rest) {
    if (Math.abs(pixel.x - last.x) < MIN_STEP_PX && Math.abs(pixel.y - last.y) < MIN_STEP_PX) continue;
    commands += `L${coordinate(pixel.x)} ${coordinate(pixel.y)}`;
    last = pixel;
  }
  return closed ? `${commands}Z` : commands;
}
