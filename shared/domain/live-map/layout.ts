/**
 * Where things go on a live map picture, in image pixels: vehicles close enough to hide each other
 * become one numbered group, labels are placed so that none overlaps another or a marker, and the scale
 * bar gets a round length. Pure geometry; the SVG and the providers draw what this decides.
 */
import type { MapVehicle } from './live-map.ts';
import { metresPerPixel, type Pixel, toImagePixel, type Viewport } from './projection.ts';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface MarkerGroup {
  /** the mean of its vehicles' pixels */
  at: Pixel;
  /** by vehicle_uid, as the map lists them */
  vehicles: MapVehicle[];
}

/** Markers whose centres are at most this far apart (pixels) are drawn as one group with its count. */
export const GROUP_DISTANCE_PX = 12;

/**
 * Single-linkage grouping: a vehicle joins every group it is within `distance` of, so a chain of close
 * vehicles is one group and no two groups end up within `distance` of each other.
 */
export function groupMarkers(viewport: Viewport, vehicles: readonly MapVehicle[], distance = GROUP_DISTANCE_PX): MarkerGroup[] {
  const points = vehicles.map((vehicle) => ({ vehicle, at: toImagePixel(viewport, vehicle.position) }));
  const groups: { at: Pixel; vehicle: MapVehicle }[][] = [];
  for (const point of points) {
    const near = groups.filter((group) => group.some(({ at }) => Math.hypot(at.x - point.at.x, at.y - point.at.y) <= distance));
    const merged = [...near.flat(), point];
    for (const group of near) groups.splice(groups.indexOf(group), 1);
    groups.push(merged);
  }
  return groups
    .map((group) => group.sort((a, b) => a.vehicle.vehicleUid - b.vehicle.vehicleUid))
    .sort((a, b) => (a[0]?.vehicle.vehicleUid ?? 0) - (b[0]?.vehicle.vehicleUid ?? 0))
    .map((group) => ({
      at: {
        x: group.reduce((sum, { at }) => sum + at.x, 0) / group.length,
        y: group.reduce((sum, { at }) => sum + at.y, 0) / group.length,
      },
      vehicles: group.map(({ vehicle }) => vehicle),
    }));
}

export const isInside = (box: Box, { x, y }: Pixel): boolean => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;

export const overlaps = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

export interface LabelRequest {
  text: string;
  /** the point the label belongs to */
  anchor: Pixel;
  /** the label's size in pixels */
  width: number;
  height: number;
  /** how far from the anchor the label keeps (the marker's radius and a gap) */
  offset: number;
}

export interface PlacedLabel {
  text: string;
  box: Box;
  /** the request's index */
  index: number;
}

/** Right, left, above, below, then the diagonals: the usual cartographic order of preference. */
const CANDIDATES: readonly ((request: LabelRequest) => Pixel)[] = [
  ({ anchor, height, offset }) => ({ x: anchor.x + offset, y: anchor.y - height / 2 }),
  ({ anchor, width, height, offset }) => ({ x: anchor.x - offset - width, y: anchor.y - height / 2 }),
  ({ anchor, width, height, offset }) => ({ x: anchor.x - width / 2, y: anchor.y - offset - height }),
  ({ anchor, width, offset }) => ({ x: anchor.x - width / 2, y: anchor.y + offset }),
  ({ anchor, height, offset }) => ({ x: anchor.x + offset * 0.7, y: anchor.y - offset * 0.7 - height }),
  ({ anchor, offset }) => ({ x: anchor.x + offset * 0.7, y: anchor.y + offset * 0.7 }),
  ({ anchor, width, height, offset }) => ({ x: anchor.x - offset * 0.7 - width, y: anchor.y - offset * 0.7 - height }),
  ({ anchor, width, offset }) => ({ x: anchor.x - offset * 0.7 - width, y: anchor.y + offset * 0.7 }),
];

/**
 * Greedy placement in the order given (most important first): each label takes the first candidate
 * position inside `frame` that overlaps no placed label and no obstacle (markers, legend). A label that
 * finds no free position is left out rather than drawn over another.
 */
export function placeLabels(requests: readonly LabelRequest[], frame: Box, obstacles: readonly Box[] = []): PlacedLabel[] {
  const taken: Box[] = [...obstacles];
  const placed: PlacedLabel[] = [];
  for (const [index, request] of requests.entries()) {
    for (const candidate of CANDIDATES) {
      const { x, y } = candidate(request);
      const box = { left: x, top: y, right: x + request.width, bottom: y + request.height };
      const inFrame = box.left >= frame.left && box.top >= frame.top && box.right <= frame.right && box.bottom <= frame.bottom;
      if (inFrame && !taken.some((other) => overlaps(box, other))) {
        taken.push(box);
        placed.push({ text: request.text, box, index });
        break;
      }
    }
  }
  return placed;
}

export interface ScaleBar {
  /** pixels */
  length: number;
  /** e.g. "500 m", "20 km" */
  text: string;
}

/** The longest round distance (1, 2 or 5 × 10^n metres) that fits in `maxPixels` at the map's centre. */
export function scaleBar(viewport: Viewport, maxPixels: number): ScaleBar {
  const metresPerPx = metresPerPixel(viewport.centre.lat, viewport.zoom);
  const maxMetres = maxPixels * metresPerPx;
  const magnitude = 10 ** Math.floor(Math.log10(maxMetres));
  const metres = [5, 2, 1].map((step) => step * magnitude).find((candidate) => candidate <= maxMetres) ?? magnitude;
  return { length: metres / metresPerPx, text: metres >= 1000 ? `${metres / 1000} km` : `${metres} m` };
}
