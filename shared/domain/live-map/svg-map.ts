/**
 * The live map as one SVG document: a basemap (Natural Earth land and GeoNames towns drawn here, or a
 * tile server's stitched tiles), then the user's zones with their names, the vehicles as markers that
 * point along their heading (close ones grouped with their count), labels that never overlap, a scale
 * bar and a legend. Rendering it to PNG is the provider's job.
 */
import { type Box, groupMarkers, isInside, type LabelRequest, type MarkerGroup, overlaps, placeLabels, scaleBar } from './layout.ts';
import type { Geofence, LiveMap } from './live-map.ts';
import { metresPerPixel, type Pixel, toImagePixel, type Viewport } from './projection.ts';

export const FONT_FAMILY = 'Noto Sans';
export const SEA = '#aad3df';
export const LAND = '#f2efe9';
export const MARKER = '#d32f2f';
const INK = '#222222';
const TOWN_INK = '#555555';
const BORDER = '#9a8f99';
const COAST = '#7fa7b8';
const ZONE_FALLBACK = '#2563eb';

const MARKER_RADIUS = 7;
const GROUP_RADIUS = 11;
const LABEL_SIZE = 12;
const TOWN_SIZE = 11;
const LEGEND_SIZE = 12;
/** Noto Sans averages about 0.56 em per character of mixed-case text; a little more keeps boxes from clipping. */
const EM_PER_CHARACTER = 0.6;
const MAX_LABEL_CHARACTERS = 28;

export interface Town {
  name: string;
  at: Pixel;
}

export type ImageFormat = 'png' | 'jpeg';

export type Basemap =
  | { kind: 'drawn'; land: string; borders: string; towns: Town[]; attribution: string }
  | { kind: 'tiles'; tiles: { at: Pixel; size: number; image: Uint8Array; format: ImageFormat }[]; attribution: string }
  /** a provider's finished picture, vehicles already on it: centred, with only the legend added */
  | { kind: 'picture'; image: Uint8Array; format: ImageFormat; width: number; height: number; attribution: string };

const escapeXml = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters, so a name holding one would break the SVG
  text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

const shorten = (text: string): string => {
  const characters = [...text.trim()];
  return characters.length > MAX_LABEL_CHARACTERS
    ? `${characters
        .slice(0, MAX_LABEL_CHARACTERS - 1)
        .join('')
        .trimEnd()}…`
    : characters.join('');
};

const textWidth = (text: string, size: number): number => [...text].length * size * EM_PER_CHARACTER;

const round = (value: number): number => Math.round(value * 10) / 10;

/** Common colour names in tones that stay readable on the map; a user's text is never put into the SVG as is. */
const NAMED_COLORS: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  gray: '#808080',
  grey: '#808080',
  red: '#dc2626',
  orange: '#ea7814',
  yellow: '#d6b400',
  green: '#16963c',
  blue: '#2563eb',
  purple: '#7e22ce',
  pink: '#db2777',
  brown: '#854d0e',
  cyan: '#0891b2',
  magenta: '#c026d3',
};

/** A zone's colour text (a common name, #rgb or #rrggbb, with or without the #) as #rrggbb; blue when it is neither. */
export function zoneColor(color: string): string {
  const value = color.trim().toLowerCase();
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(value)?.[1];
  if (hex) return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
  return NAMED_COLORS[value] ?? ZONE_FALLBACK;
}

export interface SvgLiveMap {
  svg: string;
  groups: MarkerGroup[];
  /** vehicles whose position falls outside the picture */
  outside: number;
}

/** "2026-11-23 09:12 UTC" from an ISO time. */
const gpsTimeText = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function liveMapSvg(map: LiveMap, basemap: Basemap): SvgLiveMap {
  const viewport: Viewport = { centre: map.centre, zoom: map.zoom, width: map.width, height: map.height };
  const frame: Box = { left: 0, top: 0, right: map.width, bottom: map.height };
  const groups = groupMarkers(viewport, map.vehicles);
  const visible = groups.filter((group) => isInside(frame, group.at));
  const outside = groups.filter((group) => !isInside(frame, group.at)).reduce((sum, group) => sum + group.vehicles.length, 0);
  const open =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${map.width}" height="${map.height}" viewBox="0 0 ${map.width} ` +
    `${map.height}" font-family="${FONT_FAMILY}">`;

  if (basemap.kind === 'picture') {
    // The provider framed and drew the vehicles itself, so only what needs no pixel position is added.
    const legend = legendOf(map, 0);
    const image =
      `<image x="${(map.width - basemap.width) / 2}" y="${(map.height - basemap.height) / 2}" width="${basemap.width}" ` +
      `height="${basemap.height}" href="data:image/${basemap.format};base64,${Buffer.from(basemap.image).toString('base64')}"/>`;
    return { svg: [open, image, legendSvg(legend.box, legend.lines), '</svg>'].join('\n'), groups, outside: 0 };
  }

  const { lines: legendLines, box: legendBox } = legendOf(map, outside);
  const bar = scaleBar(viewport, Math.min(120, map.width / 3));
  const scaleBox: Box = {
    left: 6,
    top: map.height - 30,
    right: 14 + Math.max(bar.length, textWidth(bar.text, 11)),
    bottom: map.height - 4,
  };
  const attributionWidth = textWidth(basemap.attribution, 9);
  const attributionBox: Box = { left: map.width - attributionWidth - 8, top: map.height - 14, right: map.width, bottom: map.height };

  const markerBoxes = visible.map(({ at, vehicles }) => {
    const radius = (vehicles.length > 1 ? GROUP_RADIUS : MARKER_RADIUS) + 3;
    return { left: at.x - radius, top: at.y - radius, right: at.x + radius, bottom: at.y + radius };
  });
  const vehicleLabels: LabelRequest[] = visible.map(({ at, vehicles }) => {
    const [first] = vehicles;
    const text = shorten(vehicles.length === 1 || !first ? (first?.name ?? '') : `${first.name} +${vehicles.length - 1}`);
    return {
      text,
      anchor: at,
      width: textWidth(text, LABEL_SIZE) + 8,
      height: LABEL_SIZE + 6,
      offset: (vehicles.length > 1 ? GROUP_RADIUS : MARKER_RADIUS) + 4,
    };
  });
  const labelledZones = map.geofences.filter((zone) => shorten(zone.description) && isInside(frame, zoneAnchor(viewport, zone)));
  const zoneLabels: LabelRequest[] = labelledZones.map((zone) => {
    const text = shorten(zone.description);
    return { text, anchor: zoneAnchor(viewport, zone), width: textWidth(text, LABEL_SIZE) + 4, height: LABEL_SIZE + 4, offset: 3 };
  });
  const townLabels: LabelRequest[] =
    basemap.kind === 'drawn'
      ? basemap.towns.map(({ name, at }) => ({
          text: shorten(name),
          anchor: at,
          width: textWidth(shorten(name), TOWN_SIZE) + 2,
          height: TOWN_SIZE + 4,
          offset: 4,
        }))
      : [];
  const chrome = [legendBox, scaleBox, attributionBox];
  const placedVehicles = placeLabels(vehicleLabels, frame, [...chrome, ...markerBoxes]);
  const placedZones = placeLabels(zoneLabels, frame, [...chrome, ...markerBoxes, ...placedVehicles.map((label) => label.box)]);
  const placedTowns = placeLabels(townLabels, frame, [
    ...chrome,
    ...markerBoxes,
    ...placedVehicles.map((label) => label.box),
    ...placedZones.map((label) => label.box),
  ]);
  // A town's dot under a vehicle's or zone's label would read as part of it: such a town is left out.
  const foreground = [...markerBoxes, ...placedVehicles.map((label) => label.box), ...placedZones.map((label) => label.box)];
  const dotBox = ({ x, y }: Pixel): Box => ({ left: x - 4, top: y - 4, right: x + 4, bottom: y + 4 });
  const shown = placedTowns.filter((label) => {
    const town = basemap.kind === 'drawn' ? basemap.towns[label.index] : undefined;
    return town !== undefined && !foreground.some((box) => overlaps(box, dotBox(town.at)));
  });
  const shownTowns = basemap.kind === 'drawn' ? shown.flatMap((label) => basemap.towns[label.index] ?? []) : [];

  const svg = [
    open,
    basemapSvg(map, basemap),
    ...map.geofences.map((zone) => zoneSvg(viewport, zone)),
    ...shownTowns.map(
      ({ at }) => `<circle cx="${round(at.x)}" cy="${round(at.y)}" r="2.5" fill="${TOWN_INK}" stroke="#fff" stroke-width="1"/>`,
    ),
    ...shown.map(({ text, box }) => haloText(text, box, TOWN_SIZE, TOWN_INK, 'normal')),
    ...placedZones.map(({ text, box, index }) => haloText(text, box, LABEL_SIZE, zoneColor(labelledZones[index]?.color ?? ''), '600')),
    ...visible.map(markerSvg),
    ...placedVehicles.map(({ text, box }) => boxedText(text, box)),
    legendSvg(legendBox, legendLines),
    scaleSvg(scaleBox, bar),
    `<text x="${round(map.width - 4)}" y="${map.height - 4}" font-size="9" text-anchor="end" fill="#333" stroke="#fff" ` +
      `stroke-width="2.5" paint-order="stroke">${escapeXml(basemap.attribution)}</text>`,
    '</svg>',
  ].join('\n');
  return { svg, groups, outside };
}

/** The vehicle count, the newest GPS time and, when some are, how many vehicles are outside the frame. */
function legendOf(map: LiveMap, outside: number): { lines: string[]; box: Box } {
  const lines = [
    `${map.vehicles.length} ${map.vehicles.length === 1 ? 'vehicle' : 'vehicles'}`,
    `newest GPS ${gpsTimeText(
      map.vehicles
        .map((vehicle) => vehicle.gpsDatetime)
        .sort()
        .at(-1) ?? '',
    )}`,
    ...(outside > 0 ? [`${outside} outside the frame`] : []),
  ];
  const box: Box = {
    left: 6,
    top: 6,
    right: 6 + 12 + Math.max(...lines.map((line) => textWidth(line, LEGEND_SIZE))),
    bottom: 6 + 8 + lines.length * (LEGEND_SIZE + 4),
  };
  return { lines, box };
}

function basemapSvg(map: LiveMap, basemap: Exclude<Basemap, { kind: 'picture' }>): string {
  if (basemap.kind === 'tiles') {
    return [
      `<rect width="${map.width}" height="${map.height}" fill="${LAND}"/>`,
      ...basemap.tiles.map(
        ({ at, size, image, format }) =>
          `<image x="${round(at.x)}" y="${round(at.y)}" width="${size}" height="${size}" ` +
          `href="data:image/${format};base64,${Buffer.from(image).toString('base64')}"/>`,
      ),
    ].join('\n');
  }
  return [
    `<rect width="${map.width}" height="${map.height}" fill="${SEA}"/>`,
    basemap.land && `<path d="${basemap.land}" fill="${LAND}" fill-rule="evenodd" stroke="${COAST}" stroke-width="1"/>`,
    basemap.borders && `<path d="${basemap.borders}" fill="none" stroke="${BORDER}" stroke-width="1.2" stroke-dasharray="5 3"/>`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The zone's northernmost point: its name goes beside or above the outline, clear of the vehicles inside. */
function zoneAnchor(viewport: Viewport, zone: Geofence): Pixel {
  if (zone.locationType === 'polygon' && zone.points.length > 0) {
    const pixels = zone.points.map((point) => toImagePixel(viewport, point));
    const top = Math.min(...pixels.map(({ y }) => y));
    const xs = pixels.map(({ x }) => x);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: top };
  }
  const centre = toImagePixel(viewport, { lat: zone.latitude, lng: zone.longitude });
  return { x: centre.x, y: centre.y - (zone.radiusKm * 1000) / metresPerPixel(zone.latitude, viewport.zoom) };
}

function zoneSvg(viewport: Viewport, zone: Geofence): string {
  const color = zoneColor(zone.color);
  const style = `fill="${color}" fill-opacity="0.18" stroke="${color}" stroke-width="2"`;
  if (zone.locationType === 'polygon') {
    const points = zone.points
      .map((point) => toImagePixel(viewport, point))
      .map(({ x, y }) => `${round(x)},${round(y)}`)
      .join(' ');
    return `<polygon points="${points}" ${style}/>`;
  }
  const centre = toImagePixel(viewport, { lat: zone.latitude, lng: zone.longitude });
  const radius = (zone.radiusKm * 1000) / metresPerPixel(zone.latitude, viewport.zoom);
  return `<circle cx="${round(centre.x)}" cy="${round(centre.y)}" r="${round(radius)}" ${style}/>`;
}

function markerSvg({ at, vehicles }: MarkerGroup): string {
  const x = round(at.x);
  const y = round(at.y);
  if (vehicles.length > 1) {
    return [
      `<circle cx="${x}" cy="${y}" r="${GROUP_RADIUS}" fill="${MARKER}" stroke="#fff" stroke-width="2.5"/>`,
      `<text x="${x}" y="${round(at.y + 4.5)}" font-size="12" font-weight="700" fill="#fff" text-anchor="middle">${vehicles.length}</text>`,
    ].join('\n');
  }
  const heading = vehicles[0]?.heading ?? null;
  if (heading === null) return `<circle cx="${x}" cy="${y}" r="${MARKER_RADIUS}" fill="${MARKER}" stroke="#fff" stroke-width="2.5"/>`;
  // An arrowhead pointing along the heading (degrees clockwise from north, as SVG rotates).
  return (
    `<path d="M0 -10 L7 7 L0 3 L-7 7 Z" transform="translate(${x} ${y}) rotate(${round(heading)})" fill="${MARKER}" ` +
    `stroke="#fff" stroke-width="2" stroke-linejoin="round"/>`
  );
}

function haloText(text: string, box: Box, size: number, color: string, weight: string): string {
  return (
    `<text x="${round(box.left + 1)}" y="${round(box.bottom - 4)}" font-size="${size}" font-weight="${weight}" fill="${color}" ` +
    `stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${escapeXml(text)}</text>`
  );
}

function boxedText(text: string, box: Box): string {
  return [
    `<rect x="${round(box.left)}" y="${round(box.top)}" width="${round(box.right - box.left)}" ` +
      `height="${round(box.bottom - box.top)}" rx="3" fill="#fff" fill-opacity="0.92" stroke="${INK}" stroke-opacity="0.35"/>`,
    `<text x="${round(box.left + 4)}" y="${round(box.bottom - 5)}" font-size="${LABEL_SIZE}" font-weight="600" ` +
      `fill="${INK}">${escapeXml(text)}</text>`,
  ].join('\n');
}

function legendSvg(box: Box, lines: readonly string[]): string {
  return [
    `<rect x="${box.left}" y="${box.top}" width="${round(box.right - box.left)}" height="${round(box.bottom - box.top)}" rx="4" ` +
      `fill="#fff" fill-opacity="0.9" stroke="${INK}" stroke-opacity="0.3"/>`,
    ...lines.map(
      (line, index) =>
        `<text x="${box.left + 6}" y="${box.top + 4 + (index + 1) * (LEGEND_SIZE + 4) - 3}" font-size="${LEGEND_SIZE}" ` +
        `font-weight="${index === 0 ? 700 : 400}" fill="${INK}">${escapeXml(line)}</text>`,
    ),
  ].join('\n');
}

function scaleSvg(box: Box, bar: { length: number; text: string }): string {
  const left = box.left + 4;
  const y = box.bottom - 6;
  return [
    `<rect x="${box.left}" y="${box.top}" width="${round(box.right - box.left)}" height="${box.bottom - box.top}" ` +
      `rx="3" fill="#fff" fill-opacity="0.8"/>`,
    `<path d="M${left} ${y - 5}V${y}H${round(left + bar.length)}V${y - 5}" fill="none" stroke="${INK}" stroke-width="1.5"/>`,
    `<text x="${left}" y="${y - 8}" font-size="11" fill="${INK}">${escapeXml(bar.text)}</text>`,
  ].join('\n');
}
