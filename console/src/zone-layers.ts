/**
 * The user's zones on a map (the zones page, and the live map, where they show a person where the fleet is even on the
 * offline basemap): each a filled outline, red when no-go, named by an HTML label at its middle (no glyphs offline).
 */
import { type ExpressionSpecification, type Map as MapLibreMap, Marker } from 'maplibre-gl';
import { circleRing, featureCollection, setGeoJson } from './map.ts';
import type { UserLocation } from './types.ts';
import { h } from './ui.ts';

export const ringOf = (zone: UserLocation): [number, number][] => {
  if (zone.location_type === 'polygon') {
    const points = JSON.parse(zone.points || '[]') as { lat: number; lng: number }[];
    const ring = points.map((point): [number, number] => [point.lng, point.lat]);
    return ring.length ? [...ring, ring[0] as [number, number]] : ring;
  }
  return circleRing(zone.longitude, zone.latitude, zone.radius);
};

export const centroid = (vertices: [number, number][]): [number, number] | undefined =>
  vertices.length
    ? [vertices.reduce((sum, [lng]) => sum + lng, 0) / vertices.length, vertices.reduce((sum, [, lat]) => sum + lat, 0) / vertices.length]
    : undefined;

const ZONE_COLOUR: ExpressionSpecification = ['case', ['==', ['get', 'no_go'], 1], '#c62828', '#0b5cad'];

/** Draws the zones below `beneath` (a layer drawn over them, when the map has it), their labels kept in `labels`. */
export function drawZones(map: MapLibreMap, zones: UserLocation[], labels: Marker[], beneath?: string): void {
  setGeoJson(
    map,
    'zones',
    featureCollection(
      zones.map((zone) => ({
        type: 'Feature',
        properties: { no_go: zone.no_go, uid: zone.user_location_uid },
        geometry: { type: 'Polygon', coordinates: [ringOf(zone)] },
      })),
    ),
  );
  if (!map.getLayer('zones-fill')) {
    const before = beneath && map.getLayer(beneath) ? beneath : undefined;
    map.addLayer({ id: 'zones-fill', type: 'fill', source: 'zones', paint: { 'fill-color': ZONE_COLOUR, 'fill-opacity': 0.2 } }, before);
    map.addLayer({ id: 'zones-line', type: 'line', source: 'zones', paint: { 'line-color': ZONE_COLOUR, 'line-width': 2 } }, before);
  }
  for (const label of labels.splice(0)) label.remove();
  for (const zone of zones) {
    const ring = ringOf(zone);
    const middle = centroid(ring.slice(0, -1));
    if (!middle) continue;
    // Under the zone, not over it: what is inside (a parked truck) stays in sight.
    const below: [number, number] = [middle[0], Math.min(...ring.map(([, lat]) => lat))];
    const element = h('span', { class: `zone-label${zone.no_go ? ' no-go' : ''}`, 'aria-hidden': 'true' }, zone.description);
    labels.push(new Marker({ element, anchor: 'top', offset: [0, 2] }).setLngLat(below).addTo(map));
  }
}
