/**
 * Any XYZ raster tile server (a user's own, OpenStreetMap-style, MapTiler, ...), given as a URL template
 * with {z}, {x}, {y} and optionally {key}: the tiles covering the picture are fetched a few at a time,
 * stitched, and the live map's zones, vehicles, labels, scale bar and legend drawn on top.
 */

import { config } from '../config.ts';
import type { LiveMap } from '../domain/live-map/live-map.ts';
import { TILE_SIZE, tilesCovering } from '../domain/live-map/projection.ts';
import { type ImageFormat, liveMapSvg } from '../domain/live-map/svg-map.ts';
import { ProviderFailed } from '../errors.ts';
import { secretString } from '../telemetry.ts';
import { providerRequest, providerTimeoutMs } from './provider-request.ts';
import { svgToPng } from './svg-png.ts';

export const MAP_TILES = 'The map tile server';
/** A 640 × 640 picture needs up to 16 tiles; 6 at a time is what browsers allow per host. */
export const PARALLEL_TILES = 6;

/** The configured template, checked: a deployment without {z}, {x} and {y} is broken, not the request. */
export function tileTemplate(): string {
  const template = config.mapTilesUrl();
  if (!template || !['{z}', '{x}', '{y}'].every((part) => template.includes(part))) {
    throw new Error('LIVE_MAP_PROVIDER is tiles but MAP_TILES_URL is not a URL template with {z}, {x} and {y}');
  }
  return template;
}

/**
 * What names the tile server in the cache fingerprint: its host and path, never the query, where a
 * template may carry a key.
 */
export function tileServerIdentity(template: string): string {
  const url = new URL(template);
  return `${url.origin}${url.pathname}`;
}

export function tileUrl(template: string, { z, x, y }: { z: number; x: number; y: number }, key: string): URL {
  return new URL(
    template
      .replaceAll('{z}', String(z))
      .replaceAll('{x}', String(x))
      .replaceAll('{y}', String(y))
      .replaceAll('{key}', encodeURIComponent(key)),
  );
}

/** The configured secret's key in AWS, else the request's map_api_key. */
async function tileKey(mapApiKey: string): Promise<string> {
  const secretName = config.mapTilesKeySecret();
  return secretName ? await secretString(secretName) : mapApiKey;
}

export async function renderTileMap(map: LiveMap, mapApiKey: string, timeoutMs = providerTimeoutMs()): Promise<Uint8Array> {
  const template = tileTemplate();
  const key = template.includes('{key}') ? await tileKey(mapApiKey) : '';
  const placements = tilesCovering({ centre: map.centre, zoom: map.zoom, width: map.width, height: map.height });
  // One deadline for all the tiles, so a slow server cannot take several times the budget.
  const deadline = AbortSignal.timeout(timeoutMs);
  const tiles = await inBatches(placements, PARALLEL_TILES, async (placement) => {
    const { image, format } = await fetchTile(tileUrl(template, placement, key), timeoutMs, deadline);
    return { at: placement.at, size: TILE_SIZE, image, format };
  });
  return svgToPng(liveMapSvg(map, { kind: 'tiles', tiles, attribution: config.mapTilesAttribution() }).svg);
}

async function fetchTile(url: URL, timeoutMs: number, deadline: AbortSignal): Promise<{ image: Uint8Array; format: ImageFormat }> {
  const response = await providerRequest(MAP_TILES, url, timeoutMs, {}, deadline);
  let image: Uint8Array;
  try {
    image = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new ProviderFailed(`${MAP_TILES} did not send the whole tile within ${timeoutMs / 1000} s`, { cause: error });
  }
  const format = imageFormat(image);
  if (!format) throw new ProviderFailed(`${MAP_TILES} did not answer with a PNG or JPEG tile`);
  return { image, format };
}

const PNG_SIGNATURE = [137, 80, 78, 71];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean => signature.every((byte, index) => bytes[index] === byte);

export const imageFormat = (bytes: Uint8Array): ImageFormat | undefined =>
  startsWith(bytes, PNG_SIGNATURE) ? 'png' : startsWith(bytes, JPEG_SIGNATURE) ? 'jpeg' : undefined;

/** `work` over every item, at most `parallel` at once, results in the items' order; the first failure wins. */
export async function inBatches<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}
