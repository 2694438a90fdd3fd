/**
 * The offline basemap, made at build time from data the service ships (scripts/build-console.ts), so a map needs no
 * network: Natural Earth's countries and the GeoNames cities at first; zoomed in, Natural Earth's finer outlines, the
 * towns of 15,000 people and more (loaded then, not before: they would slow the first map) and the names of the places
 * in view; at every zoom a graticule, its lines labelled with their latitude and longitude at the map's edges, so even
 * a street-level view far from any town says where it is. Names and degrees are HTML labels: the style has no glyph
 * server to draw text with.
 */
import { type GeoJSONSource, type Map as MapLibreMap, Marker, type StyleSpecification } from 'maplibre-gl';
import { h } from './ui.ts';

const BASEMAP = '/console/basemap/';
/** From this zoom the 1:50m outlines and the towns are drawn (a region, then a city, fills the map). */
const DETAIL_FROM_ZOOM = 4;
const TOWNS_FROM_ZOOM = 7;
const LABELS_FROM_ZOOM = 4;
/** At most this many names at once, the biggest places first, none overlapping another. */
const MAX_LABELS = 40;
const LABEL_BOX = { width: 110, height: 18 };
/** The graticule's spacing: the widest step (degrees) that still draws at least GRID_LINES lines across the map. */
const GRID_STEPS = [10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];
const GRID_LINES = 3;

export const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  sources: {
    countries: { type: 'geojson', data: `${BASEMAP}countries.json` },
    cities: { type: 'geojson', data: `${BASEMAP}cities.json` },
  },
  layers: [
    { id: 'water', type: 'background', paint: { 'background-color': '#b9d3e6' } },
    // At every zoom until the 1:50m outlines have loaded (then up to DETAIL_FROM_ZOOM): never water where land is.
    { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f3f0e8' } },
    { id: 'borders', type: 'line', source: 'countries', paint: { 'line-color': '#9a9385', 'line-width': 0.6 } },
    {
      id: 'cities',
      type: 'circle',
      source: 'cities',
      minzoom: 4,
      maxzoom: TOWNS_FROM_ZOOM,
      paint: { 'circle-radius': 2.5, 'circle-color': '#6b6457', 'circle-stroke-color': '#fff', 'circle-stroke-width': 0.5 },
    },
  ],
};

/** What the offline style adds once zoomed in: each source with its layers, put under the cities (and every overlay). */
const DETAIL: { zoom: number; id: string; file: string; layers: Parameters<MapLibreMap['addLayer']>[0][] }[] = [
  {
    zoom: DETAIL_FROM_ZOOM - 1,
    id: 'countries-50m',
    file: 'countries-50m.json',
    layers: [
      { id: 'land-50m', type: 'fill', source: 'countries-50m', minzoom: DETAIL_FROM_ZOOM, paint: { 'fill-color': '#f3f0e8' } },
      {
        id: 'borders-50m',
        type: 'line',
        source: 'countries-50m',
        minzoom: DETAIL_FROM_ZOOM,
        paint: { 'line-color': '#9a9385', 'line-width': ['interpolate', ['linear'], ['zoom'], 4, 0.6, 10, 1.5] },
      },
    ],
  },
  {
    zoom: TOWNS_FROM_ZOOM - 1,
    id: 'towns',
    file: 'towns.json',
    layers: [
      {
        id: 'towns',
        type: 'circle',
        source: 'towns',
        minzoom: TOWNS_FROM_ZOOM,
        paint: {
          'circle-radius': ['interpolate', ['linear'], ['get', 'population'], 15_000, 2.5, 1_000_000, 4.5],
          'circle-color': '#6b6457',
          'circle-stroke-color': '#fff',
          'circle-stroke-width': 1,
        },
      },
    ],
  },
];

const isOffline = (map: MapLibreMap): boolean => Boolean(map.getSource('countries') && map.getLayer('cities'));

/** Keeps the offline style's detail and place names in step with the map, whichever basemap is shown later. */
export function keepOfflineDetail(map: MapLibreMap): void {
  const labels = new Map<string, Marker>();
  const gridLabels: Marker[] = [];
  const update = () => {
    if (!isOffline(map)) {
      drawGraticule(map, gridLabels, false);
      clearLabels(labels);
      return;
    }
    for (const detail of DETAIL) {
      if (map.getZoom() < detail.zoom || map.getSource(detail.id)) continue;
      map.addSource(detail.id, { type: 'geojson', data: `${BASEMAP}${detail.file}` });
      for (const layer of detail.layers) map.addLayer(layer, 'cities');
    }
    drawGraticule(map, gridLabels, true);
    placeLabels(map, labels);
  };
  map.on('moveend', update);
  map.on('styledata', update);
  update();
  // A source reports each tile it loads: the names are placed again once per frame at most.
  let placing = false;
  map.on('sourcedata', (event) => {
    if (event.sourceId === 'countries-50m' && event.isSourceLoaded)
      for (const coarse of ['land', 'borders']) map.setLayerZoomRange(coarse, 0, DETAIL_FROM_ZOOM);
    if (placing || (event.sourceId !== 'towns' && event.sourceId !== 'cities') || !event.isSourceLoaded) return;
    placing = true;
    requestAnimationFrame(() => {
      placing = false;
      placeLabels(map, labels);
    });
  });
}

function clearLabels(labels: Map<string, Marker>): void {
  for (const marker of labels.values()) marker.remove();
  labels.clear();
}

/** The names of the biggest places in view, each beside its dot, skipping any that would overlap a bigger one's. */
function placeLabels(map: MapLibreMap, labels: Map<string, Marker>): void {
  const zoom = map.getZoom();
  const source = zoom >= TOWNS_FROM_ZOOM && map.getSource('towns') ? 'towns' : 'cities';
  if (zoom < LABELS_FROM_ZOOM || !map.getSource(source) || !map.isSourceLoaded(source)) {
    clearLabels(labels);
    return;
  }
  const bounds = map.getBounds();
  const seen = new Set<string>();
  const placed: { x: number; y: number }[] = [];
  const places = map
    .querySourceFeatures(source)
    .filter((feature) => feature.geometry.type === 'Point')
    .map((feature) => ({
      name: String(feature.properties.name),
      population: Number(feature.properties.population),
      at: (feature.geometry as GeoJSON.Point).coordinates as [number, number],
    }))
    .filter((place) => bounds.contains(place.at))
    .sort((a, b) => b.population - a.population);
  for (const place of places) {
    const key = `${place.name}@${place.at.join(',')}`;
    if (seen.has(key) || seen.size >= MAX_LABELS) continue;
    const { x, y } = map.project(place.at);
    if (placed.some((other) => Math.abs(other.x - x) < LABEL_BOX.width && Math.abs(other.y - y) < LABEL_BOX.height)) continue;
    placed.push({ x, y });
    seen.add(key);
    if (!labels.has(key)) {
      const element = h('span', { class: 'place-label', 'aria-hidden': 'true' }, place.name);
      labels.set(key, new Marker({ element, anchor: 'left', offset: [6, 0] }).setLngLat(place.at).addTo(map));
    }
  }
  for (const [key, marker] of labels) {
    if (seen.has(key)) continue;
    marker.remove();
    labels.delete(key);
  }
}

/** The graticule for the map's view: lines at a round step, each labelled at the top (longitude) or left (latitude) edge. */
function drawGraticule(map: MapLibreMap, labels: Marker[], shown: boolean): void {
  for (const label of labels.splice(0)) label.remove();
  if (!shown) return;
  const bounds = map.getBounds();
  const [west, south, east, north] = [
    bounds.getWest(),
    Math.max(bounds.getSouth(), -85),
    bounds.getEast(),
    Math.min(bounds.getNorth(), 85),
  ];
  const step = GRID_STEPS.find((candidate) => (east - west) / candidate >= GRID_LINES) ?? (GRID_STEPS.at(-1) as number);
  const decimals = Math.max(0, Math.ceil(-Math.log10(step)));
  const multiples = (from: number, to: number) => {
    const found: number[] = [];
    for (let n = Math.ceil(from / step); n * step <= to; n++) found.push(Number((n * step).toFixed(decimals)));
    return found;
  };
  const longitudes = multiples(west, east);
  const latitudes = multiples(south, north);
  const lines: GeoJSON.Feature[] = [
    ...longitudes.map((lng) => line([lng, south], [lng, north])),
    ...latitudes.map((lat) => line([west, lat], [east, lat])),
  ];
  const data: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: lines };
  const source = map.getSource('graticule') as GeoJSONSource | undefined;
  if (source) source.setData(data);
  else {
    map.addSource('graticule', { type: 'geojson', data });
    map.addLayer(
      {
        id: 'graticule',
        type: 'line',
        source: 'graticule',
        paint: { 'line-color': '#8aa4b8', 'line-width': 0.6, 'line-dasharray': [4, 3] },
      },
      'cities',
    );
  }
  const degrees = (value: number, positive: string, negative: string) =>
    `${Math.abs(value).toFixed(decimals)}°${value < 0 ? negative : positive}`;
  for (const lng of longitudes) labels.push(gridLabel(map, [lng, north], 'top', degrees(lng, 'E', 'W')));
  for (const lat of latitudes) labels.push(gridLabel(map, [west, lat], 'left', degrees(lat, 'N', 'S')));
}

const line = (from: [number, number], to: [number, number]): GeoJSON.Feature => ({
  type: 'Feature',
  properties: {},
  geometry: { type: 'LineString', coordinates: [from, to] },
});

const gridLabel = (map: MapLibreMap, at: [number, number], anchor: 'top' | 'left', text: string): Marker =>
  new Marker({ element: h('span', { class: 'grid-label', 'aria-hidden': 'true' }, text), anchor }).setLngLat(at).addTo(map);
