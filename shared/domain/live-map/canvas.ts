/**
 * An RGBA raster and the few shapes the schematic map needs. Pixel (i, j) covers [i, i+1) × [j, j+1);
 * a shape paints the pixels whose centre it covers. Every shape is clipped to the picture before it is
 * walked, so a geofence thousands of kilometres wide at zoom 20 costs no more than one that fits.
 */
import type { Pixel } from './projection.ts';

export type Rgb = readonly [number, number, number];

export interface Canvas {
  readonly width: number;
  readonly height: number;
  /** RGBA, row by row, as pngjs wants it */
  readonly data: Uint8Array;
}

export function createCanvas(width: number, height: number, background: Rgb): Canvas {
  const data = new Uint8Array(width * height * 4);
  for (let offset = 0; offset < data.length; offset += 4) {
    data[offset] = background[0];
    data[offset + 1] = background[1];
    data[offset + 2] = background[2];
    data[offset + 3] = 255;
  }
  return { width, height, data };
}

export function pixelAt(canvas: Canvas, x: number, y: number): Rgb {
  const offset = (y * canvas.width + x) * 4;
  return [canvas.data[offset] ?? 0, canvas.data[offset + 1] ?? 0, canvas.data[offset + 2] ?? 0];
}

/** Paints one pixel, mixing `alpha` of the colour over what is there; outside the picture it does nothing. */
export function paint(canvas: Canvas, x: number, y: number, color: Rgb, alpha = 1): void {
  if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) return;
  const offset = (y * canvas.width + x) * 4;
  for (let channel = 0; channel < 3; channel++) {
    const old = canvas.data[offset + channel] ?? 0;
    canvas.data[offset + channel] = Math.round(old + ((color[channel] ?? 0) - old) * alpha);
  }
}

/** Pixels from..to (inclusive) of row y. */
function span(canvas: Canvas, y: number, from: number, to: number, color: Rgb, alpha: number): void {
  if (y < 0 || y >= canvas.height) return;
  for (let x = Math.max(0, from); x <= Math.min(canvas.width - 1, to); x++) paint(canvas, x, y, color, alpha);
}

export function fillRect(canvas: Canvas, x: number, y: number, width: number, height: number, color: Rgb, alpha = 1): void {
  for (let row = Math.max(0, y); row < Math.min(canvas.height, y + height); row++) span(canvas, row, x, x + width - 1, color, alpha);
}

/** The columns of row y whose pixel centres lie within `radius` of `centre`, or undefined. */
function circleSpan(centre: Pixel, radius: number, y: number): [number, number] | undefined {
  const dy = y + 0.5 - centre.y;
  if (radius <= 0 || Math.abs(dy) > radius) return undefined;
  const half = Math.sqrt(radius * radius - dy * dy);
  const from = Math.ceil(centre.x - half - 0.5);
  const to = Math.floor(centre.x + half - 0.5);
  return from <= to ? [from, to] : undefined;
}

const visibleRows = (canvas: Canvas, top: number, bottom: number): [number, number] => [
  Math.max(0, Math.floor(top)),
  Math.min(canvas.height - 1, Math.ceil(bottom)),
];

export function fillCircle(canvas: Canvas, centre: Pixel, radius: number, color: Rgb, alpha = 1): void {
  const [first, last] = visibleRows(canvas, centre.y - radius, centre.y + radius);
  for (let y = first; y <= last; y++) {
    const columns = circleSpan(centre, radius, y);
    if (columns) span(canvas, y, columns[0], columns[1], color, alpha);
  }
}

/** A ring `thickness` pixels wide centred on the circle's edge. */
export function strokeCircle(canvas: Canvas, centre: Pixel, radius: number, thickness: number, color: Rgb, alpha = 1): void {
  const outer = radius + thickness / 2;
  const inner = radius - thickness / 2;
  const [first, last] = visibleRows(canvas, centre.y - outer, centre.y + outer);
  for (let y = first; y <= last; y++) {
    const outside = circleSpan(centre, outer, y);
    if (!outside) continue;
    const hole = circleSpan(centre, inner, y);
    if (!hole) {
      span(canvas, y, outside[0], outside[1], color, alpha);
      continue;
    }
    span(canvas, y, outside[0], hole[0] - 1, color, alpha);
    span(canvas, y, hole[1] + 1, outside[1], color, alpha);
  }
}

/** Even-odd scanline fill, so a self-crossing ring still fills sensibly. */
export function fillPolygon(canvas: Canvas, vertices: readonly Pixel[], color: Rgb, alpha = 1): void {
  if (vertices.length < 3) return;
  const ys = vertices.map((vertex) => vertex.y);
  const [first, last] = visibleRows(canvas, Math.min(...ys), Math.max(...ys));
  for (let y = first; y <= last; y++) {
    const middle = y + 0.5;
    const crossings: number[] = [];
    for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
      const a = vertices[i] as Pixel;
      const b = vertices[j] as Pixel;
      if (a.y <= middle !== b.y <= middle) crossings.push(a.x + ((middle - a.y) * (b.x - a.x)) / (b.y - a.y));
    }
    crossings.sort((p, q) => p - q);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      span(canvas, y, Math.ceil((crossings[k] as number) - 0.5), Math.ceil((crossings[k + 1] as number) - 0.5) - 1, color, alpha);
    }
  }
}

/** A straight line `width` pixels wide, clipped to the picture first (Liang–Barsky). */
export function strokeLine(canvas: Canvas, from: Pixel, to: Pixel, color: Rgb, width = 1): void {
  const clipped = clipSegment(from, to, -width, -width, canvas.width + width, canvas.height + width);
  if (!clipped) return;
  const [a, b] = clipped;
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y))));
  const reach = Math.floor((width - 1) / 2);
  for (let step = 0; step <= steps; step++) {
    const x = Math.floor(a.x + ((b.x - a.x) * step) / steps);
    const y = Math.floor(a.y + ((b.y - a.y) * step) / steps);
    fillRect(canvas, x - reach, y - reach, width, width, color);
  }
}

export function strokePolygon(canvas: Canvas, vertices: readonly Pixel[], color: Rgb, width = 1): void {
  vertices.forEach((vertex, index) => strokeLine(canvas, vertex, vertices[(index + 1) % vertices.length] as Pixel, color, width));
}

function clipSegment(a: Pixel, b: Pixel, left: number, top: number, right: number, bottom: number): [Pixel, Pixel] | undefined {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let enter = 0;
  let leave = 1;
  const edges: [number, number][] = [
    [-dx, a.x - left],
    [dx, right - a.x],
    [-dy, a.y - top],
    [dy, bottom - a.y],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return undefined;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter > leave) return undefined;
  }
  return [
    { x: a.x + enter * dx, y: a.y + enter * dy },
    { x: a.x + leave * dx, y: a.y + leave * dy },
  ];
}

const NAMED_COLORS: Record<string, Rgb> = {
  black: [0, 0, 0], white: [255, 255, 255], gray: [128, 128, 128], grey: [128, 128, 128],
  red: [220, 38, 38], orange: [234, 120, 20], yellow: [214, 180, 0], green: [22, 150, 60],
  blue: [37, 99, 235], purple: [126, 34, 206], pink: [219, 39, 119], brown: [133, 77, 14],
  cyan: [8, 145, 178], magenta: [192, 38, 211],
};

/** A location's colour text (a common name, #rgb or #rrggbb), or undefined when it is neither. */
export function parseColor(text: string): Rgb | undefined {
  const name = text.trim().toLowerCase();
  if (NAMED_COLORS[name]) return NAMED_COLORS[name];
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(name)?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return [0, 2, 4].map((start) => parseInt(full.slice(start, start + 2), 16)) as unknown as Rgb;
}
