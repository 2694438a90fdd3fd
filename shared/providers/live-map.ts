/**
 * getLiveMap's work: the vehicles (and, for the maps drawn here, the geofences), the picture from the S3
 * cache when one shows exactly this, else from the configured provider. Configuration is read per call.
 */
import { composeLiveMap, type MapSize, mapFingerprint } from '../domain/live-map/live-map.ts';
import { findCachedMap, saveCachedMap } from '../store/live-maps.ts';
import { listUserLocations } from '../store/user-locations.ts';
import { listLinkedVehicles } from '../store/vehicles.ts';
import { fetchGoogleStaticMap } from './google-static-maps.ts';
import { renderOfflineMap } from './offline-map.ts';
import { config } from '../config.ts';

export const LIVE_MAP_PROVIDERS = ['offline', 'google'] as const;
export type LiveMapProvider = (typeof LIVE_MAP_PROVIDERS)[number];

/** LIVE_MAP_PROVIDER, `offline` when unset so local runs and tests need no network. */
export function liveMapProvider(): LiveMapProvider {
  const configured = config.liveMapProvider();
  const provider = LIVE_MAP_PROVIDERS.find((name) => name === configured);
  if (!provider) throw new Error(`LIVE_MAP_PROVIDER must be one of ${LIVE_MAP_PROVIDERS.join(', ')}`);
  return provider;
}

export interface LiveMapRequest extends MapSize {
  /** the filter's IMEIs; undefined = every vehicle of the user */
  imeis: readonly string[] | undefined;
  mapApiKey: string;
}

/** The PNG of the user's vehicles at their last positions. */
export async function liveMapPng(userUid: number, { imeis, mapApiKey, ...size }: LiveMapRequest): Promise<Uint8Array> {
  const provider = liveMapProvider();
  const [vehicles, geofences] = await Promise.all([
    listLinkedVehicles(userUid, imeis),
    provider === 'offline' ? listUserLocations(userUid) : [],
  ]);
  const map = composeLiveMap(size, vehicles, geofences);
  const fingerprint = mapFingerprint(provider, map);
  const cached = await findCachedMap(fingerprint);
  if (cached) return cached;
  const png = provider === 'google' ? await fetchGoogleStaticMap(map, mapApiKey) : await renderOfflineMap(map);
  await saveCachedMap(fingerprint, png);
  return png;
}
