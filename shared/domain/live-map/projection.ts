/**
 * Web Mercator as slippy maps and Google Static Maps use it: the world is a square of
 * 256 × 2^zoom pixels, x growing east from 180° W and y growing south from about 85.05° N.
 */
import type { LatLng } from '../geo.ts';

export const TILE_SIZE = 256;
/** beyond this latitude Mercator runs to infinity; the square world stops here */
export const MAX_LATITUDE = 85.0511287798;

export interface Pixel {
  x: number;
  y: number;
}

const worldSize = (zoom: number): number => TILE_SIZE * 2 ** zoom;
const clampLatitude = (lat: number): number => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));

/** The position on the world square at this zoom (fractional pixels). */
export function toWorldPixel({ lat, lng }: LatLng, zoom: number): Pixel {
  const size = worldSize(zoom);
  const sin = Math.sin((clampLatitude(lat) * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

export function fromWorldPixel({ x, y }: Pixel, zoom: number): LatLng {
  const size = worldSize(zoom);
  const n = Math.PI - (2 * Math.PI * y) / size;
  return { lat: (180 / Math.PI) * Math.atan(Math.sinh(n)), lng: (x / size) * 360 - 180 };
}

/** Ground metres one pixel covers at this latitude and zoom. */
export const metresPerPixel = (lat: number, zoom: number): number =>
  (2 * Math.PI * 6_378_137 * Math.cos((clampLatitude(lat) * Math.PI) / 180)) / worldSize(zoom);

/** A picture of width × height pixels whose middle shows `centre`. */
export interface Viewport {
  centre: LatLng;
  zoom: number;
  width: number;
  height: number;
}

/** Image coordinates of a position: (0,0) is the top-left corner of the picture. */
export function toImagePixel(viewport: Viewport, position: LatLng): Pixel {
  const point = toWorldPixel(position, viewport.zoom);
  const middle = toWorldPixel(viewport.centre, viewport.zoom);
  return { x: point.x - middle.x + viewport.width / 2, y: point.y - middle.y + viewport.height / 2 };
}

export function fromImagePixel(viewport: Viewport, pixel: Pixel): LatLng {
  const middle = toWorldPixel(viewport.centre, viewport.zoom);
  return fromWorldPixel({ x: pixel.x - viewport.width / 2 + middle.x, y: pixel.y - viewport.height / 2 + middle.y }, viewport.zoom);
}

/** One slippy-map tile and where its top-left corner falls in the picture. */
export interface TilePlacement {
  z: number;
  x: number;
  y: number;
  at: Pixel;
}

/**
 * The 256-pixel tiles that cover the picture at its zoom, row by row. Columns wrap around the
 * antimeridian; rows stop at the poles (the picture shows background there).
 */
export function tilesCovering(viewport: Viewport): TilePlacement[] {
  const middle = toWorldPixel(viewport.centre, viewport.zoom);
  const left = middle.x - viewport.width / 2;
  const top = middle.y - viewport.height / 2;
  const count = 2 ** viewport.zoom;
  const tiles: TilePlacement[] = [];
  for (
    let row = Math.max(0, Math.floor(top / TILE_SIZE));
    row <= Math.min(count - 1, Math.floor((top + viewport.height - 1) / TILE_SIZE));
    row++
  ) {
    for (let column = Math.floor(left / TILE_SIZE); column <= Math.floor((left + viewport.width - 1) / TILE_SIZE); column++) {
      tiles.push({
        z: viewport.zoom,
        x: ((column % count) + count) % count,
        y: row,
        at: { x: column * TILE_SIZE - left, y: row * TILE_SIZE - top },
      });
    }
  }
  return tiles;
}
