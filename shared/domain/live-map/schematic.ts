/**
 * The built-in map: no tiles and no network, just Web Mercator at the requested zoom on a light
 * background with a graticule, the user's geofences, and a marker and name per vehicle.
 */
import { PNG } from 'pngjs';
import {
  type Canvas, createCanvas, fillCircle, fillPolygon, fillRect, parseColor, type Rgb, strokeCircle, strokeLine, strokePolygon,
} from './canvas.ts';
import { drawText, textSize } from './font.ts';
import type { Geofence, LiveMap, MapVehicle } from './live-map.ts';
import { fromImagePixel, MAX_LATITUDE, metresPerPixel, type Pixel, toImagePixel, type Viewport } from './projection.ts';

export const BACKGROUND: Rgb = [242, 239, 233];
export const MARKER_COLOR: Rgb = [211, 47, 47];
const GRATICULE: Rgb = [218, 212, 202];
const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [40, 40, 40];
const GEOFENCE_FALLBACK: Rgb = [37, 99, 235];
const GEOFENCE_FILL_ALPHA = 0.18;

const MARKER_RADIUS = 5;
const MARKER_RIM = 2;
const MAX_LABEL_CHARACTERS = 24;
/** graticule spacings in degrees; the finest one at least this many pixels apart is drawn */
const GRID_STEPS = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45, 90];
const MIN_GRID_SPACING_PX = 64;

/** The map as PNG bytes. */
export function renderSchematicMap(map: LiveMap): Uint8Array {
  return encodePng(drawSchematicMap(map));
}

export function drawSchematicMap(map: LiveMap): Canvas {
  const viewport: Viewport = { centre: map.centre, zoom: map.zoom, width: map.width, height: map.height };
  const canvas = createCanvas(map.width, map.height, BACKGROUND);
  drawGraticule(canvas, viewport);
  for (const geofence of map.geofences) drawGeofence(canvas, viewport, geofence);
  const markers = map.vehicles.map((vehicle) => ({ vehicle, at: markerCentre(viewport, vehicle) }));
  for (const { at } of markers) drawMarker(canvas, at);
  // Names go on top of every marker so a crowded map keeps them readable.
  for (const { vehicle, at } of markers) drawLabel(canvas, at, vehicle.name);
  return canvas;
}

/** The middle of the pixel the vehicle's position falls in, so a marker sits symmetric around it. */
export function markerCentre(viewport: Viewport, vehicle: MapVehicle): Pixel {
  const { x, y } = toImagePixel(viewport, vehicle.position);
  return { x: Math.floor(x) + 0.5, y: Math.floor(y) + 0.5 };
}

function drawGraticule(canvas: Canvas, viewport: Viewport): void {
  const pixelsPerDegree = (256 * 2 ** viewport.zoom) / 360;
  const step = GRID_STEPS.find((degrees) => degrees * pixelsPerDegree >= MIN_GRID_SPACING_PX) ?? 90;
  const topLeft = fromImagePixel(viewport, { x: 0, y: 0 });
  const bottomRight = fromImagePixel(viewport, { x: canvas.width, y: canvas.height });
  for (let k = Math.ceil(topLeft.lng / step); k * step <= bottomRight.lng; k++) {
    const { x } = toImagePixel(viewport, { lat: viewport.centre.lat, lng: k * step });
    strokeLine(canvas, { x, y: 0 }, { x, y: canvas.height }, GRATICULE);
  }
  const south = Math.max(bottomRight.lat, -MAX_LATITUDE);
  const north = Math.min(topLeft.lat, MAX_LATITUDE);
  for (let k = Math.ceil(south / step); k * step <= north; k++) {
    const { y } = toImagePixel(viewport, { lat: k * step, lng: viewport.centre.lng });
    strokeLine(canvas, { x: 0, y }, { x: canvas.width, y }, GRATICULE);
  }
}

function drawGeofence(canvas: Canvas, viewport: Viewport, geofence: Geofence): void {
  const color = parseColor(geofence.color) ?? GEOFENCE_FALLBACK;
  if (geofence.locationType === 'polygon') {
    const vertices = geofence.points.map((point) => toImagePixel(viewport, point));
    fillPolygon(canvas, vertices, color, GEOFENCE_FILL_ALPHA);
    strokePolygon(canvas, vertices, color, 2);
    return;
  }
  const centre = toImagePixel(viewport, { lat: geofence.latitude, lng: geofence.longitude });
  const radius = (geofence.radiusKm * 1000) / metresPerPixel(geofence.latitude, viewport.zoom);
  fillCircle(canvas, centre, radius, color, GEOFENCE_FILL_ALPHA);
  strokeCircle(canvas, centre, radius, 2, color);
}

function drawMarker(canvas: Canvas, at: Pixel): void {
  fillCircle(canvas, at, MARKER_RADIUS + MARKER_RIM + 1, INK);
  fillCircle(canvas, at, MARKER_RADIUS + MARKER_RIM, WHITE);
  fillCircle(canvas, at, MARKER_RADIUS, MARKER_COLOR);
}

/** The name right of the marker on a white box; small pictures get the font at 1:1. */
function drawLabel(canvas: Canvas, at: Pixel, name: string): void {
  const characters = [...name.trim()];
  const text =
    characters.length > MAX_LABEL_CHARACTERS ? `${characters.slice(0, MAX_LABEL_CHARACTERS - 1).join('').trimEnd()}.` : characters.join('');
  if (text === '') return;
  const scale = canvas.width >= 256 && canvas.height >= 256 ? 2 : 1;
  const size = textSize(text, scale);
  const padding = 2 * scale;
  const left = Math.floor(at.x) + MARKER_RADIUS + MARKER_RIM + 4;
  const top = Math.floor(at.y) - Math.floor(size.height / 2) - padding;
  fillRect(canvas, left, top, size.width + 2 * padding, size.height + 2 * padding, WHITE, 0.85);
  drawText(canvas, text, left + padding, top + padding, INK, scale);
}

function encodePng(canvas: Canvas): Uint8Array {
  const png = new PNG({ width: canvas.width, height: canvas.height });
  png.data = Buffer.from(canvas.data.buffer, canvas.data.byteOffset, canvas.data.byteLength);
  return PNG.sync.write(png);
}
