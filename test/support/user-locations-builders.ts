/** User locations made through the store, as addUserLocation makes them. */
import { type LocationParams, newLocation, type UserLocation } from '../../shared/domain/user-location.ts';
import { addUserLocation, getUserLocation } from '../../shared/store/user-locations.ts';
import type { TestUser } from './builders.ts';

/** A Johannesburg depot, the vertices of a square around it, for polygons. */
export const DEPOT = { lat: -26.2041, lng: 28.0473 };
export const SQUARE_AROUND_DEPOT = [
  { lat: -26.19, lng: 28.03 },
  { lat: -26.19, lng: 28.06 },
  { lat: -26.22, lng: 28.06 },
  { lat: -26.22, lng: 28.03 },
];

export async function givenUserLocation(user: TestUser, params: LocationParams = {}): Promise<UserLocation> {
  return addUserLocation(user.userUid, newLocation({ description: 'Depot', latitude: DEPOT.lat, longitude: DEPOT.lng, ...params }));
}

export async function givenPolygonLocation(user: TestUser, params: LocationParams = {}): Promise<UserLocation> {
  return givenUserLocation(user, { location_type: 'polygon', points: SQUARE_AROUND_DEPOT, description: 'Yard', ...params });
}

/** The location as stored, to verify what a refused or foreign request left unchanged. */
export const storedLocation = (user: TestUser, userLocationUid: number): Promise<UserLocation> =>
  getUserLocation(user.userUid, userLocationUid);
