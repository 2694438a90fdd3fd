/**
 * The map every page shares: MapLibre GL (its worker served beside the bundle, same origin), on one of three basemaps:
 * Amazon Location's style when config.json names one, the free vector style when config.json offers it (the CSP allows
 * exactly those styles' origins), or the offline style made at build time from the data the service ships (Natural
 * Earth countries, GeoNames cities), which needs no glyphs and no network.
 */
import {
  type GeoJSONSource,
  Map as MapLibreMap,
  NavigationControl,
  ScaleControl,
  type StyleSpecification,
  setWorkerUrl,
} from 'maplibre-gl';
import type { ConsoleConfig } from '../../shared/console/site.ts';
import { loadConfig } from './auth.ts';
import { keepOfflineDetail, OFFLINE_STYLE } from './offline-basemap.ts';

setWorkerUrl('/console/maplibre-gl-worker.js');

export type Basemap = 'offline' | 'free' | 'amazon';
const BASEMAP_KEY = 'fleet-console.basemap';

export async function chosenBasemap(): Promise<Basemap> {
  const config = await loadConfig().catch(() => undefined);
  const kept = localStorage.getItem(BASEMAP_KEY) as Basemap | null;
  if (kept === 'offline' || (kept === 'amazon' && config?.mapStyle) || (kept === 'free' && config?.freeMapStyle)) return kept;
  return config?.mapStyle ? 'amazon' : 'offline';
}

export async function styleOf(basemap: Basemap): Promise<string | StyleSpecification> {
  if (basemap === 'offline') return OFFLINE_STYLE;
  const config = await loadConfig();
  return (basemap === 'amazon' ? config.mapStyle : config.freeMapStyle) ?? OFFLINE_STYLE;
}

export const keepBasemap = (basemap: Basemap): void => localStorage.setItem(BASEMAP_KEY, basemap);

/** A map in `container`; a basemap that cannot be reached gives way to the offline style. */
export async function createMap(container: HTMLElement, label: string): Promise<MapLibreMap> {
  const basemap = await chosenBasemap();
  const map = new MapLibreMap({
    container,
    style: await styleOf(basemap),
    center: [28.05, -26.1],
    zoom: 5,
    attributionControl: { compact: true },
  });
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  // MapLibre's canvas is the map's region (focusable, arrow keys pan, +/- zoom): it carries the page's name for it.
  map.getCanvas().setAttribute('aria-label', label);
  if (basemap !== 'offline') {
    map.once('error', () => {
      if (!map.isStyleLoaded()) map.setStyle(OFFLINE_STYLE);
    });
  }
  await new Promise<void>((resolve) => (map.loaded() ? resolve() : map.once('load', () => resolve())));
  return map;
}

/** The basemaps config.json offers, the offline one always. */
export function basemapPicker(
  onChange: (basemap: Basemap) => void,
  current: Basemap,
  config: ConsoleConfig | undefined,
): HTMLSelectElement {
  const select = document.createElement('select');
  const options: [Basemap, string][] = [
    ...(config?.mapStyle ? [['amazon', 'Amazon Location'] as [Basemap, string]] : []),
    ['offline', 'Offline (built in)'],
    ...(config?.freeMapStyle ? [['free', 'OpenFreeMap (free vector)'] as [Basemap, string]] : []),
  ];
  for (const [value, text] of options) select.append(new Option(text, value, false, value === current));
  select.addEventListener('change', () => {
    keepBasemap(select.value as Basemap);
    onChange(select.value as Basemap);
  });
  return select;
}

/** Sets a GeoJSON source's data, adding the source the first time. */
export function setGeoJson(map: MapLibreMap, id: string, data: GeoJSON.FeatureCollection, options: Record<string, unknown> = {}): void {
  const source = map.getSource(id) as GeoJSONSource | undefined;
  if (source) source.setData(data);
  else map.addSource(id, { type: 'geojson', data, ...options });
}

export const featureCollection = (features: GeoJSON.Feature[]): GeoJSON.FeatureCollection => ({ type: 'FeatureCollection', features });

/** A circle of radius km around a centre, as a polygon ring (for zones drawn as a centre and a radius). */
export function circleRing(lng: number, lat: number, radiusKm: number, steps = 64): [number, number][] {
  const ring: [number, number][] = [];
  const latRadius = radiusKm / 110.574;
  const lngRadius = radiusKm / (111.32 * Math.cos((lat * Math.PI) / 180));
  for (let step = 0; step <= steps; step++) {
    const angle = (step / steps) * 2 * Math.PI;
    ring.push([lng + lngRadius * Math.cos(angle), lat + latRadius * Math.sin(angle)]);
  }
  return ring;
}

/**
 * The offline basemap's detail once the page's own content is on screen (the map idle after it was drawn): its few MB
 * of outlines and towns never hold up the first view of the fleet, the trip or the zones.
 */
export const addOfflineDetailWhenShown = (map: MapLibreMap): void => {
  map.once('idle', () => keepOfflineDetail(map));
};

export function fitTo(map: MapLibreMap, points: [number, number][], maxZoom = 14): void {
  if (points.length === 0) return;
  const lngs = points.map((point) => point[0]);
  const lats = points.map((point) => point[1]);
  map.fitBounds(
    [
      [Math.min(...lngs), Math.min(...lats)],
      [Math.max(...lngs), Math.max(...lats)],
    ],
    { padding: 40, maxZoom, duration: 0 },
  );
}
