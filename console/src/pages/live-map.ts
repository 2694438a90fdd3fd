/**
 * The live map: every vehicle from getLiveData, clustered on the map (MapLibre's GeoJSON clustering, so 1,000 vehicles
 * stay one source and a few layers), a searchable list beside it, follow-one, refreshed by polling while shown; the
 * user's zones beneath them.
 */
import { type Map as MapLibreMap, Marker, Popup } from 'maplibre-gl';
import { get } from '../api.ts';
import { loadConfig } from '../auth.ts';
import { basemapPicker, chosenBasemap, createMap, featureCollection, fitTo, setGeoJson, styleOf } from '../map.ts';
import { keepOfflineDetail } from '../offline-basemap.ts';
import { poll } from '../poll.ts';
import { fromGmt, instantOf, offsetLabel, wallTime } from '../time.ts';
import { type LiveVehicle, type UserLocation, vehicleLabel } from '../types.ts';
import { field, h, pageFrame, statusLine } from '../ui.ts';
import { drawZones } from '../zone-layers.ts';

export const LIVE_POLL_MS = 15_000;
const OFFLINE_AFTER_MS = 30 * 60_000;
const MOVING_KMH = 3;

type Status = 'moving' | 'stopped' | 'offline';

export function statusOf(vehicle: LiveVehicle, now = Date.now()): Status {
  const heard = vehicle.gps_datetime ?? vehicle.last_response;
  if (!heard || vehicle.latitude === null || now - instantOf(heard) > OFFLINE_AFTER_MS) return 'offline';
  return Number(vehicle.speed ?? 0) > MOVING_KMH ? 'moving' : 'stopped';
}

const STATUS_COLOURS: Record<Status, string> = { moving: '#1a7f37', stopped: '#b35900', offline: '#6e7781' };

export async function liveMapPage(main: HTMLElement, params: URLSearchParams): Promise<() => void> {
  const status = statusLine();
  const search = h('input', { type: 'search', placeholder: 'Name, registration or IMEI' });
  const list = h('ul', { class: 'vehicle-list', 'aria-label': 'Vehicles' });
  const follow = h('input', { type: 'checkbox', id: 'follow-selected' });
  const counts = h('p', { class: 'counts', 'aria-live': 'polite' });
  const mapBox = h('div', { class: 'map' });
  const config = await loadConfig().catch(() => undefined);
  const picker = basemapPicker(async (basemap) => map.setStyle(await styleOf(basemap)), await chosenBasemap(), config);
  pageFrame(
    main,
    'Live map',
    status.element,
    h(
      'div',
      { class: 'split' },
      h(
        'aside',
        { class: 'side', 'aria-label': 'Vehicle list' },
        field('Search vehicles', search),
        h('div', { class: 'field inline' }, follow, h('label', { for: follow.id }, 'Follow the selected vehicle')),
        counts,
        list,
        field('Basemap', picker),
      ),
      mapBox,
    ),
  );
  status.loading('Loading the fleet…');
  const map = await createMap(mapBox, 'Map of the fleet');
  let vehicles: LiveVehicle[] = [];
  let selected = params.get('vehicle');
  let fitted = false;
  const clusterMarkers = new Map<number, Marker>();
  const popup = new Popup({ closeButton: true, closeOnClick: false });

  const located = () => vehicles.filter((vehicle) => vehicle.latitude !== null && vehicle.longitude !== null);
  const draw = () => {
    setGeoJson(
      map,
      'vehicles',
      featureCollection(
        located().map((vehicle) => ({
          type: 'Feature',
          properties: { uid: vehicle.vehicle_uid, status: statusOf(vehicle), selected: vehicle.vehicle_uid === selected ? 1 : 0 },
          geometry: { type: 'Point', coordinates: [Number(vehicle.longitude), Number(vehicle.latitude)] },
        })),
      ),
      { cluster: true, clusterRadius: 45, clusterMaxZoom: 14 },
    );
    addVehicleLayers(map);
  };
  const renderList = () => {
    const words = search.value.trim().toLowerCase();
    const shown = vehicles.filter((vehicle) => !words || `${vehicleLabel(vehicle)} ${vehicle.imei}`.toLowerCase().includes(words));
    const byStatus = { moving: 0, stopped: 0, offline: 0 };
    for (const vehicle of vehicles) byStatus[statusOf(vehicle)]++;
    counts.textContent = `${vehicles.length} vehicles: ${byStatus.moving} moving, ${byStatus.stopped} stopped, ${byStatus.offline} offline`;
    list.replaceChildren(
      ...shown.slice(0, 300).map((vehicle) => {
        const state = statusOf(vehicle);
        return h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: `vehicle ${state}`,
              'aria-pressed': vehicle.vehicle_uid === selected ? 'true' : 'false',
              onclick: () => select(vehicle.vehicle_uid, true),
            },
            h('span', { class: `dot ${state}`, 'aria-hidden': 'true' }),
            h('span', { class: 'name' }, vehicleLabel(vehicle)),
            h(
              'span',
              { class: 'state' },
              `${state}${vehicle.speed && state === 'moving' ? `, ${Math.round(Number(vehicle.speed))} km/h` : ''}`,
            ),
          ),
        );
      }),
    );
    if (shown.length > 300) list.append(h('li', { class: 'more' }, `${shown.length - 300} more: narrow the search`));
  };
  const showPopup = (vehicle: LiveVehicle) => {
    popup
      .setLngLat([Number(vehicle.longitude), Number(vehicle.latitude)])
      .setDOMContent(
        h(
          'div',
          {},
          h('strong', {}, vehicleLabel(vehicle)),
          h('div', {}, `${statusOf(vehicle)} · ${vehicle.speed ?? 0} km/h`),
          h('div', {}, `Last fix ${fromGmt(vehicle.gps_datetime)}`),
          h('a', { href: `#/trips?vehicle=${vehicle.vehicle_uid}` }, 'Trips and replay'),
        ),
      )
      .addTo(map);
  };
  const select = (uid: string, fly: boolean) => {
    selected = uid;
    const vehicle = vehicles.find((candidate) => candidate.vehicle_uid === uid);
    draw();
    renderList();
    if (vehicle?.latitude && fly) {
      map.easeTo({ center: [Number(vehicle.longitude), Number(vehicle.latitude)], zoom: Math.max(map.getZoom(), 12), duration: 0 });
      showPopup(vehicle);
    }
  };
  const refresh = async () => {
    const answer = await get<{ vehicles: LiveVehicle[] }>('getLiveData');
    vehicles = answer.vehicles;
    draw();
    renderList();
    status.done(`Updated ${wallTime(Date.now()).slice(11)} (${offsetLabel()})`);
    mapBox.dataset.vehicles = String(located().length);
    if (!fitted) {
      fitted = true;
      // Marks the first frame that shows the fleet (npm run bench -- console measures the time to it).
      map.once('idle', () => {
        mapBox.dataset.shown = String(Math.round(performance.now()));
        keepOfflineDetail(map);
      });
      placeFromLink(map, params) ||
        fitTo(
          map,
          located().map((vehicle) => [Number(vehicle.longitude), Number(vehicle.latitude)]),
        );
      if (selected) select(selected, !params.has('lat'));
    } else if (follow.checked && selected) {
      const vehicle = vehicles.find((candidate) => candidate.vehicle_uid === selected);
      if (vehicle?.latitude) {
        map.easeTo({ center: [Number(vehicle.longitude), Number(vehicle.latitude)], duration: 500 });
        if (popup.isOpen()) showPopup(vehicle);
      }
    }
  };
  // Where the map is centred, readable by the page's tests and tools as the vehicle count is.
  map.on('moveend', () => {
    const { lng, lat } = map.getCenter();
    mapBox.dataset.center = `${lng.toFixed(5)},${lat.toFixed(5)}`;
  });
  // The user's zones under the fleet: read once, they tell where the vehicles are on any basemap (depots, clients).
  let zones: UserLocation[] = [];
  const zoneLabels: Marker[] = [];
  const drawZoneLayers = () => drawZones(map, zones, zoneLabels, 'vehicle-clusters');
  get<{ locations: UserLocation[] }>('getUserLocations')
    .then(({ locations }) => {
      zones = locations;
      drawZoneLayers();
    })
    .catch(() => undefined);
  map.on('styledata', () => {
    if (zones.length && !map.getSource('zones')) drawZoneLayers();
    if (vehicles.length && !map.getSource('vehicles')) draw();
  });
  map.on('click', 'vehicle-points', (event) => {
    const uid = String(event.features?.[0]?.properties?.uid ?? '');
    const vehicle = vehicles.find((candidate) => candidate.vehicle_uid === uid);
    if (vehicle) {
      select(uid, false);
      showPopup(vehicle);
    }
  });
  map.on('render', () => updateClusterCounts(map, clusterMarkers));
  search.addEventListener('input', renderList);
  try {
    await refresh();
  } catch (error) {
    status.error(error);
  }
  const stop = poll(LIVE_POLL_MS, refresh);
  return () => {
    stop();
    map.remove();
  };
}

function addVehicleLayers(map: MapLibreMap): void {
  if (map.getLayer('vehicle-clusters')) return;
  map.addLayer({
    id: 'vehicle-clusters',
    type: 'circle',
    source: 'vehicles',
    filter: ['has', 'point_count'],
    paint: {
      'circle-color': '#0b5cad',
      'circle-opacity': 0.85,
      'circle-radius': ['step', ['get', 'point_count'], 14, 10, 18, 100, 24, 500, 30],
      'circle-stroke-color': '#fff',
      'circle-stroke-width': 2,
    },
  });
  map.addLayer({
    id: 'vehicle-points',
    type: 'circle',
    source: 'vehicles',
    filter: ['!', ['has', 'point_count']],
    paint: {
      'circle-color': [
        'match',
        ['get', 'status'],
        'moving',
        STATUS_COLOURS.moving,
        'stopped',
        STATUS_COLOURS.stopped,
        STATUS_COLOURS.offline,
      ],
      'circle-radius': ['case', ['==', ['get', 'selected'], 1], 10, 7],
      'circle-stroke-color': ['case', ['==', ['get', 'selected'], 1], '#000', '#fff'],
      'circle-stroke-width': 2,
    },
  });
  map.on('click', 'vehicle-clusters', (event) => {
    const feature = event.features?.[0];
    if (feature?.geometry.type === 'Point')
      map.easeTo({ center: feature.geometry.coordinates as [number, number], zoom: map.getZoom() + 2 });
  });
}

/** Cluster sizes as HTML labels (the offline style has no glyphs): only the clusters on screen, reused between frames. */
function updateClusterCounts(map: MapLibreMap, markers: Map<number, Marker>): void {
  if (!map.getSource('vehicles') || !map.isSourceLoaded('vehicles')) return;
  const seen = new Set<number>();
  for (const feature of map.querySourceFeatures('vehicles', { filter: ['has', 'point_count'] })) {
    const id = Number(feature.properties.cluster_id);
    if (seen.has(id) || feature.geometry.type !== 'Point') continue;
    seen.add(id);
    let marker = markers.get(id);
    if (!marker) {
      marker = new Marker({ element: h('span', { class: 'cluster-count', 'aria-hidden': 'true' }) });
      markers.set(id, marker);
    }
    marker.getElement().textContent = String(feature.properties.point_count);
    marker.setLngLat(feature.geometry.coordinates as [number, number]).addTo(map);
  }
  for (const [id, marker] of markers) {
    if (seen.has(id)) continue;
    marker.remove();
    markers.delete(id);
  }
}

/** An event's link names a place and a time: the map goes there and marks it. */
function placeFromLink(map: MapLibreMap, params: URLSearchParams): boolean {
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  if (!params.has('lat') || !Number.isFinite(lat) || !Number.isFinite(lng)) return false;
  map.jumpTo({ center: [lng, lat], zoom: 14 });
  const label = `${params.get('event') ?? 'Event'} at ${fromGmt(params.get('at'))}`;
  new Marker({ color: '#c62828' }).setLngLat([lng, lat]).setPopup(new Popup().setText(label)).addTo(map).togglePopup();
  return true;
}
