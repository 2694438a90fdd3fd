/**
 * Amazon Location Service static maps (GetStaticMap, the standalone Maps API: no map resource, IAM
 * auth, no key). The service draws the vehicles from a GeoJSON overlay and answers a JPEG; the picture
 * goes through the SVG renderer to become the PNG the operation promises, with the legend on top.
 */
import type { GeoMapsClient, StaticMapStyle } from '@aws-sdk/client-geo-maps';
import { config } from '../config.ts';
import type { LatLng } from '../domain/geo.ts';
import type { LiveMap } from '../domain/live-map/live-map.ts';
import { liveMapSvg } from '../domain/live-map/svg-map.ts';
import { ProviderFailed } from '../errors.ts';
import { providerTimeoutMs } from './provider-request.ts';
import { svgToPng } from './svg-png.ts';

export const AMAZON_LOCATION_MAPS = 'Amazon Location Service maps';
/** GetStaticMap's own limits */
const MIN_SIDE_PX = 64;
const MAX_OVERLAY_CHARACTERS = 4200;

const clients = new Map<string, GeoMapsClient>();

/**
 * The SDK, imported at the first map: esbuild hoists an external package's static import into the bundle's init, even
 * from this module, which getLiveMap itself only loads for this provider.
 */
const geoMapsSdk = () => import('@aws-sdk/client-geo-maps');

/** One client per endpoint; GEO_MAPS_ENDPOINT (tests) points it at a fake server with fake credentials. */
async function geoMaps(timeoutMs: number): Promise<GeoMapsClient> {
  const endpoint = config.geoMapsEndpoint();
  const key = `${endpoint ?? ''} ${timeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    const { GeoMapsClient } = await geoMapsSdk();
    client = new GeoMapsClient({
      // One attempt whose deadline is the provider budget: a retry could not finish inside the function's timeout.
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
      ...(endpoint
        ? { endpoint, region: config.region('us-east-1'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** "lng,lat" with at most 6 decimals, as the service's patterns want. */
const lngLat = ({ lat, lng }: LatLng): string => `${Number(lng.toFixed(6))},${Number(lat.toFixed(6))}`;
const position = ({ lat, lng }: LatLng): number[] => [Number(lng.toFixed(6)), Number(lat.toFixed(6))];

/**
 * A red point per vehicle labelled with its name; when that would pass the service's 4,200-character
 * limit, one MultiPoint of every vehicle without labels.
 */
export function vehiclesOverlay(map: LiveMap): string {
  const labelled = JSON.stringify({
    type: 'FeatureCollection',
    features: map.vehicles.map((vehicle) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: position(vehicle.position) },
      properties: { color: '#d32f2f', label: vehicle.name.slice(0, 40) },
    })),
  });
  if (labelled.length <= MAX_OVERLAY_CHARACTERS) return labelled;
  return JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'MultiPoint', coordinates: map.vehicles.map((vehicle) => position(vehicle.position)) },
        properties: { color: '#d32f2f' },
      },
    ],
  });
}

export function staticMapRequest(map: LiveMap, style: StaticMapStyle) {
  return {
    FileName: 'map',
    Center: lngLat(map.centre),
    Zoom: map.zoom,
    Width: Math.max(map.width, MIN_SIDE_PX),
    Height: Math.max(map.height, MIN_SIDE_PX),
    Style: style,
    ScaleBarUnit: 'Kilometers' as const,
    GeoJsonOverlay: vehiclesOverlay(map),
  };
}

export async function fetchAmazonLocationMap(map: LiveMap, timeoutMs = providerTimeoutMs()): Promise<Uint8Array> {
  const request = staticMapRequest(map, config.amazonLocationMapStyle());
  let image: Uint8Array | undefined;
  let mediaType: string | undefined;
  try {
    const { GetStaticMapCommand } = await geoMapsSdk();
    const answer = await (await geoMaps(timeoutMs)).send(new GetStaticMapCommand(request), { abortSignal: AbortSignal.timeout(timeoutMs) });
    image = answer.Blob;
    mediaType = answer.ContentType;
  } catch (error) {
    throw providerFailure(error, timeoutMs);
  }
  const format = ({ 'image/png': 'png', 'image/jpeg': 'jpeg' } as const)[mediaType as 'image/png' | 'image/jpeg'] as
    | 'png'
    | 'jpeg'
    | undefined;
  if (!image || image.length === 0 || !format) throw new ProviderFailed(`${AMAZON_LOCATION_MAPS} did not answer with an image`);
  const picture = { kind: 'picture' as const, image, format, width: request.Width, height: request.Height, attribution: '' };
  return svgToPng(liveMapSvg(map, picture).svg);
}

/** The SDK's error as the 502 the operation answers: the HTTP status, or the timeout; never the request. */
function providerFailure(error: unknown, timeoutMs: number): ProviderFailed {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = failure.$metadata?.httpStatusCode;
  if (status) return new ProviderFailed(`${AMAZON_LOCATION_MAPS} answered HTTP ${status}`, { cause: error });
  const timedOut = ['TimeoutError', 'AbortError', 'RequestTimeout'].includes(failure.name ?? '');
  return new ProviderFailed(
    timedOut ? `${AMAZON_LOCATION_MAPS} did not answer within ${timeoutMs / 1000} s` : `${AMAZON_LOCATION_MAPS} could not be reached`,
    { cause: error },
  );
}
