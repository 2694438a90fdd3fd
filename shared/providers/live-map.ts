/**
 * getLiveMap's work: the vehicles (and, for the maps drawn here, the geofences), the picture from the S3
 * cache when one shows exactly this, else from the configured provider. Configuration is read per call.
 */

import { config } from '../config.ts';
import { composeLiveMap, type LiveMap, type MapSize, mapFingerprint } from '../domain/live-map/live-map.ts';
import { findCachedMap, saveCachedMap } from '../store/live-maps.ts';
import { listUserLocations } from '../store/user-locations.ts';
import { listLinkedVehicles } from '../store/vehicles.ts';

export const LIVE_MAP_PROVIDERS = ['offline', 'amazon-location', 'google', 'tiles'] as const;
export type LiveMapProvider = (typeof LIVE_MAP_PROVIDERS)[number];

/** LIVE_MAP_PROVIDER, `offline` when unset so local runs and tests need no network. */
export function liveMapProvider(): LiveMapProvider {
  const configured = config.liveMapProvider();
  const provider = LIVE_MAP_PROVIDERS.find((name) => name === configured);
  if (!provider) throw new Error(`LIVE_MAP_PROVIDER must be one of ${LIVE_MAP_PROVIDERS.join(', ')}`);
  return provider;
}

/** The providers whose pictures this service draws, and so can show the user's zones. */
const DRAWS_ZONES: readonly LiveMapProvider[] = ['offline', 'tiles'];

/**
 * Each provider's drawing, loaded on the first map it draws: a function runs one provider, and the others' clients,
 * renderer and atlas stay out of its module init.
 */
const draw: Record<LiveMapProvider, (map: LiveMap, mapApiKey: string) => Promise<Uint8Array>> = {
  offline: async (map) => (await import('./offline-map.ts')).renderOfflineMap(map),
  'amazon-location': async (map) => (await import('./amazon-location-maps.ts')).fetchAmazonLocationMap(map),
  google: async (map, key) => (await import('./google-static-maps.ts')).fetchGoogleStaticMap(map, key),
  tiles: async (map, key) => (await import('./map-tiles.ts')).renderTileMap(map, key),
};

/** What the pictures depend on besides the map: a tile server's host and path (never its key). */
async function providerIdentity(provider: LiveMapProvider): Promise<string> {
  if (provider !== 'tiles') return provider;
  const { tileServerIdentity, tileTemplate } = await import('./map-tiles.ts');
  return `tiles ${tileServerIdentity(tileTemplate())}`;
}

export interface LiveMapRequest extends MapSize {
  /** the filter's IMEIs; undefined = every vehicle of the user */
  imeis: readonly string[] | undefined;
  mapApiKey: string;
  /** settles once the request may reach the provider (the key's bucket let it in), throws when it may not */
  mayDraw: () => Promise<void>;
}

/**
 * The PNG of the user's vehicles at their last positions. The reads and the cache run whatever `mayDraw` will say
 * (a refused request answers none of it); drawing waits for it, so a refused request never reaches a provider.
 */
export async function liveMapPng(userUid: number, { imeis, mapApiKey, mayDraw, ...size }: LiveMapRequest): Promise<Uint8Array> {
  const provider = liveMapProvider();
  const [vehicles, geofences] = await Promise.all([
    listLinkedVehicles(userUid, imeis),
    DRAWS_ZONES.includes(provider) ? listUserLocations(userUid) : [],
  ]);
  const map = composeLiveMap(size, vehicles, geofences);
  // A tile server's pictures differ from another's: its host and path (never its key) are part of the fingerprint.
  const fingerprint = mapFingerprint(await providerIdentity(provider), map);
  const cached = await findCachedMap(fingerprint);
  if (cached) return cached;
  await mayDraw();
  const png = await draw[provider](map, mapApiKey);
  await saveCachedMap(fingerprint, png);
  return png;
}
