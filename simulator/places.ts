/** The places the simulated vehicles drive between. */
import type { LatLng } from '../shared/domain/geo.ts';

/** Depot, customers and a fuel stop around Johannesburg (the demo seed's places). */
export const places = [
  { name: 'Depot Midrand', lat: -25.9992, lng: 28.1263 },
  { name: 'Client Sandton', lat: -26.1076, lng: 28.0567 },
  { name: 'Client Kempton Park', lat: -26.1015, lng: 28.2308 },
  { name: 'Fuel stop Woodmead', lat: -26.0536, lng: 28.0936 },
] as const satisfies readonly (LatLng & { name: string })[];

export type PlaceName = (typeof places)[number]['name'];

export interface Place extends LatLng {
  name: PlaceName;
}

export const placeNamed = (name: PlaceName): Place => places.find((place) => place.name === name) as Place;
