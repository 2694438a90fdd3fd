/**
 * Zones: the user's locations on the map, drawn (a circle: a centre and a radius; a polygon: its vertices, clicked on the
 * map) and edited, with their no_go, speed and only_push (getUserLocations, addUserLocation, editUserLocation,
 * deleteUserLocation).
 */
import { Marker } from 'maplibre-gl';
import { get, post } from '../api.ts';
import { addOfflineDetailWhenShown, circleRing, createMap, featureCollection, fitTo, setGeoJson } from '../map.ts';
import type { UserLocation } from '../types.ts';
import { field, h, pageFrame, statusLine, submitted, table } from '../ui.ts';
import { centroid, drawZones, ringOf } from '../zone-layers.ts';

interface Draft {
  uid?: number;
  kind: 'point' | 'polygon';
  centre?: [number, number];
  vertices: [number, number][];
}

export async function zonesPage(main: HTMLElement): Promise<() => void> {
  const status = statusLine();
  const list = h('section', { 'aria-label': 'Zones list' });
  const mapBox = h('div', { class: 'map' });
  const kind = h('select', {}, h('option', { value: 'point' }, 'Circle'), h('option', { value: 'polygon' }, 'Polygon'));
  const description = h('input', { type: 'text', required: true });
  const radius = h('input', { type: 'number', min: 0.01, step: 0.01, value: 0.5 });
  const speed = h('input', { type: 'number', min: 0, step: 1, value: 0 });
  const noGo = h('input', { type: 'checkbox', id: 'zone-no-go' });
  const onlyPush = h('input', { type: 'checkbox', id: 'zone-only-push' });
  const drawHint = h('p', { class: 'hint', 'aria-live': 'polite' });
  const formTitle = h('h2', {}, 'New zone');
  const save = h('button', { type: 'submit' }, 'Save zone');
  const form = h(
    'form',
    { class: 'card', onsubmit: submitted(() => saveDraft()) },
    formTitle,
    field('Shape', kind),
    field('Zone name', description),
    field('Radius (km)', radius, 'For a circle'),
    field('Speed limit (km/h, 0 for none)', speed),
    h('div', { class: 'field inline' }, noGo, h('label', { for: noGo.id }, 'No-go zone')),
    h('div', { class: 'field inline' }, onlyPush, h('label', { for: onlyPush.id }, 'Push notifications only')),
    drawHint,
    h('div', { class: 'actions' }, save, h('button', { type: 'button', onclick: () => startDraft() }, 'Clear the drawing')),
  );
  pageFrame(
    main,
    'Zones',
    status.element,
    h('div', { class: 'split' }, h('aside', { class: 'side', 'aria-label': 'Zone editor' }, form), mapBox),
    list,
  );
  status.loading('Loading zones…');
  const map = await createMap(mapBox, 'Map of the zones: click to place a circle or the vertices of a polygon');
  let zones: UserLocation[] = [];
  let draft: Draft = { kind: 'point', vertices: [] };
  const handles: Marker[] = [];

  const drawDraft = () => {
    for (const handle of handles.splice(0)) handle.remove();
    const ring =
      draft.kind === 'point'
        ? draft.centre
          ? circleRing(draft.centre[0], draft.centre[1], Number(radius.value) || 0.5)
          : []
        : draft.vertices.length > 2
          ? [...draft.vertices, draft.vertices[0] as [number, number]]
          : draft.vertices;
    setGeoJson(
      map,
      'draft',
      featureCollection(ring.length > 1 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: ring } }] : []),
    );
    if (!map.getLayer('draft-line'))
      map.addLayer({
        id: 'draft-line',
        type: 'line',
        source: 'draft',
        paint: { 'line-color': '#d81b60', 'line-width': 3, 'line-dasharray': [2, 1] },
      });
    const points = draft.kind === 'point' ? (draft.centre ? [draft.centre] : []) : draft.vertices;
    points.forEach((point, index) => {
      const handle = new Marker({ draggable: true, color: '#d81b60' }).setLngLat(point).addTo(map);
      handle.on('dragend', () => {
        const moved = handle.getLngLat();
        if (draft.kind === 'point') draft.centre = [moved.lng, moved.lat];
        else draft.vertices[index] = [moved.lng, moved.lat];
        drawDraft();
      });
      handles.push(handle);
    });
    drawHint.textContent =
      draft.kind === 'point'
        ? draft.centre
          ? `Centre ${draft.centre[1].toFixed(5)}, ${draft.centre[0].toFixed(5)}: drag it or click elsewhere to move it.`
          : 'Click the map to place the centre.'
        : `${draft.vertices.length} vertices: click the map to add one (at least 3), drag one to move it.`;
  };
  const startDraft = (zone?: UserLocation) => {
    draft = zone
      ? {
          uid: zone.user_location_uid,
          kind: zone.location_type,
          centre: [zone.longitude, zone.latitude],
          vertices: zone.location_type === 'polygon' ? ringOf(zone).slice(0, -1) : [],
        }
      : { kind: kind.value as Draft['kind'], vertices: [] };
    formTitle.textContent = zone ? `Edit zone ${zone.description}` : 'New zone';
    if (zone) {
      kind.value = zone.location_type;
      description.value = zone.description;
      radius.value = String(zone.radius);
      speed.value = String(zone.speed);
      noGo.checked = zone.no_go === 1;
      onlyPush.checked = zone.only_push === 1;
      fitTo(map, ringOf(zone), 16);
    }
    drawDraft();
  };
  const zoneLabels: Marker[] = [];
  const drawZoneLayers = () => drawZones(map, zones, zoneLabels);
  const refresh = async () => {
    zones = (await get<{ locations: UserLocation[] }>('getUserLocations')).locations;
    drawZoneLayers();
    list.replaceChildren(
      table(
        'Zones',
        ['Name', 'Shape', 'Speed limit', 'No-go', 'Push only', 'Actions'],
        zones.map((zone) => [
          zone.description,
          zone.location_type === 'polygon' ? 'polygon' : `circle, ${zone.radius} km`,
          zone.speed ? `${zone.speed} km/h` : 'none',
          zone.no_go ? 'yes' : 'no',
          zone.only_push ? 'yes' : 'no',
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', onclick: () => startDraft(zone) }, `Edit ${zone.description}`),
            h('button', { type: 'button', class: 'danger', onclick: () => remove(zone) }, `Delete ${zone.description}`),
          ),
        ]),
      ),
    );
  };
  const saveDraft = async () => {
    const centre = draft.kind === 'point' ? draft.centre : centroid(draft.vertices);
    if (!centre || (draft.kind === 'polygon' && draft.vertices.length < 3)) {
      status.error(new Error(draft.kind === 'point' ? 'click the map to place the centre first' : 'a polygon needs at least 3 vertices'));
      return;
    }
    status.loading('Saving the zone…');
    try {
      const fields = {
        description: description.value,
        latitude: centre[1].toFixed(7),
        longitude: centre[0].toFixed(7),
        location_type: draft.kind,
        radius: draft.kind === 'point' ? radius.value : undefined,
        points:
          draft.kind === 'polygon'
            ? JSON.stringify(draft.vertices.map(([lng, lat]) => ({ lat: Number(lat.toFixed(7)), lng: Number(lng.toFixed(7)) })))
            : '',
        speed: speed.value,
        no_go: noGo.checked ? 1 : 0,
        only_push: onlyPush.checked ? 1 : 0,
      };
      if (draft.uid) await post('editUserLocation', { user_location_uid: draft.uid, ...fields });
      else await post('addUserLocation', fields);
      status.done(`Zone ${description.value} saved.`);
      form.reset();
      startDraft();
      await refresh();
      fitTo(map, zones.flatMap(ringOf));
    } catch (error) {
      status.error(error);
    }
  };
  const remove = async (zone: UserLocation) => {
    status.loading('Deleting…');
    try {
      await post('deleteUserLocation', { user_location_uid: zone.user_location_uid });
      await refresh();
      status.done(`Zone ${zone.description} deleted.`);
    } catch (error) {
      status.error(error);
    }
  };
  map.on('click', (event) => {
    if (draft.kind === 'point') draft.centre = [event.lngLat.lng, event.lngLat.lat];
    else draft.vertices.push([event.lngLat.lng, event.lngLat.lat]);
    drawDraft();
  });
  kind.addEventListener('change', () => {
    draft = { ...(draft.uid ? { uid: draft.uid } : {}), kind: kind.value as Draft['kind'], vertices: [] };
    drawDraft();
  });
  radius.addEventListener('input', drawDraft);
  try {
    await refresh();
    fitTo(map, zones.flatMap(ringOf));
    startDraft();
    status.done(`${zones.length} zones`);
  } catch (error) {
    status.error(error);
  }
  addOfflineDetailWhenShown(map);
  return () => map.remove();
}
