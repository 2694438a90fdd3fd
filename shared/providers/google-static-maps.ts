/** Google Static Maps: one GET whose query string describes the whole picture, answered with the image. */

import { config } from '../config.ts';
import type { LatLng } from '../domain/geo.ts';
import type { LiveMap } from '../domain/live-map/live-map.ts';
import { ProviderFailed } from '../errors.ts';
import { providerRequest, providerTimeoutMs } from './provider-request.ts';

export const GOOGLE_STATIC_MAPS = 'Google Static Maps';
const DEFAULT_URL = 'https://maps.googleapis.com/maps/api/staticmap';
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Google reads at most 6 decimals (about 0.1 m). */
const latLngText = ({ lat, lng }: LatLng): string => `${Number(lat.toFixed(6))},${Number(lng.toFixed(6))}`;

/** The request URL: size, zoom, centre, a roadmap PNG, one markers parameter per vehicle, then the key. */
export function googleStaticMapUrl(base: string, map: LiveMap, mapApiKey: string): URL {
  const url = new URL(base);
  const query = url.searchParams;
  query.set('size', `${map.width}x${map.height}`);
  query.set('zoom', String(map.zoom));
  query.set('center', latLngText(map.centre));
  query.set('maptype', 'roadmap');
  query.set('format', 'png');
  for (const vehicle of map.vehicles) {
    const style = vehicle.label ? ['color:red', `label:${vehicle.label}`] : ['color:red'];
    query.append('markers', [...style, latLngText(vehicle.position)].join('|'));
  }
  query.set('key', mapApiKey);
  return url;
}

export async function fetchGoogleStaticMap(map: LiveMap, mapApiKey: string, timeoutMs = providerTimeoutMs()): Promise<Uint8Array> {
  const base = config.googleStaticMapsUrl() ?? DEFAULT_URL;
  const response = await providerRequest(GOOGLE_STATIC_MAPS, googleStaticMapUrl(base, map, mapApiKey), timeoutMs);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    // The request's deadline also covers the body: a stalled image is a provider failure, not ours.
    throw new ProviderFailed(`${GOOGLE_STATIC_MAPS} did not send the whole image within ${timeoutMs / 1000} s`, { cause: error });
  }
  if (!isPng(bytes)) throw new ProviderFailed(`${GOOGLE_STATIC_MAPS} did not answer with a PNG image`);
  return bytes;
}

export const isPng = (bytes: Uint8Array): boolean => PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
