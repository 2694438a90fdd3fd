export interface LatLng {
  lat: number;
  lng: number;
}

export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle (haversine) distance in km. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Places kept of a coordinate: 7 decimals is about 1 cm. */
export const COORDINATE_DECIMALS = 7;

/**
 * Rounds to a number of decimal places. Every numeric input goes through it before it is stored:
 * DynamoDB refuses magnitudes below 1e-130 and more than 38 significant digits, so a value that
 * validation accepts must never carry them (1e-200 becomes 0; -0 becomes 0).
 */
export const roundTo = (value: number, decimals: number): number => Number(value.toFixed(decimals)) + 0;
