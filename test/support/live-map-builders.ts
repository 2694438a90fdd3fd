/** A fake Google Static Maps on 127.0.0.1, vehicles placed on the map, and the cached maps in S3. */
import { createServer } from 'node:http';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PNG } from 'pngjs';
import type { LiveState, Vehicle } from '../../shared/domain/vehicle.ts';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { givenLiveState, givenVehicle, type TestUser } from './builders.ts';
import { listenOnLoopback } from './loopback.ts';

/** How the fake answers: a PNG of the requested size, an HTTP error, a page that is not an image, or nothing at all. */
export type FakeAnswer = 'png' | 'not-png' | 'hang' | { status: number };

export interface FakeStaticMaps {
  /** the base URL to put in GOOGLE_STATIC_MAPS_URL */
  url: string;
  /** the query of every request received, oldest first */
  requests: URLSearchParams[];
  /** the bytes of every PNG sent, oldest first */
  served: Buffer[];
  answer: FakeAnswer;
  close(): Promise<void>;
}

/** Speaks the Static Maps wire format: GET <path>?size=WxH&...; answers image/png of that size. */
export async function startFakeStaticMaps(): Promise<FakeStaticMaps> {
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    fake.requests.push(query);
    const { answer } = fake;
    if (answer === 'hang') return;
    if (answer === 'not-png') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>quota page</html>');
    if (typeof answer === 'object') {
      return void res
        .writeHead(answer.status, { 'Content-Type': 'text/plain' })
        .end('The Google Maps Platform server rejected your request.');
    }
    const [width, height] = (query.get('size') ?? '1x1').split('x').map(Number);
    const png = new PNG({ width, height });
    // Each answer is a different colour, so a test can tell a fresh picture from a cached one.
    png.data.fill(fake.served.length % 256);
    const bytes = PNG.sync.write(png);
    fake.served.push(bytes);
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(bytes);
  });
  const { origin, close } = await listenOnLoopback(server);
  const fake: FakeStaticMaps = {
    url: `${origin}/maps/api/staticmap`,
    requests: [],
    served: [],
    answer: 'png',
    close,
  };
  return fake;
}

/** A vehicle of the user with a last position. */
export async function givenPlacedVehicle(
  user: TestUser,
  position: { lat: number; lng: number },
  overrides: Partial<Vehicle> = {},
  live: Partial<LiveState> = {},
): Promise<Vehicle> {
  const vehicle = await givenVehicle(user, overrides);
  await givenLiveState(vehicle, { latitude: position.lat, longitude: position.lng, ...live });
  return vehicle;
}

/** Every object key under livemaps/ in the test bucket. */
export async function storedLiveMapKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: 'livemaps/', ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

/**
 * A 64 × 48 baseline JPEG of one colour (#3a7d44), as GetStaticMap answers JPEG
 * (made with ImageMagick `convert -size 64x48 xc:#3a7d44 -strip`).
 */
export const GREEN_JPEG_64X48 = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAUDBAQEAwUEBAQFBQUGBwwIBwcHBw8LCwkMEQ8SEhEPERETFhwXExQaFRERGCEYGh0dHx8f' +
    'ExciJCIeJBweHx7/2wBDAQUFBQcGBw4ICA4eFBEUHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4e' +
    'Hh7/wAARCAAwAEADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAA' +
    'AAAAAAAAAAAAAAUG/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AjwERkQAAAAAAAAAAAAAAAAAAAAAH/9k=',
  'base64',
);
export const JPEG_GREEN = [0x3a, 0x7d, 0x44] as const;

/** A PNG of one colour: what the fake tile server sends. */
export function solidPng(width: number, height: number, [red, green, blue]: readonly [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let at = 0; at < png.data.length; at += 4) png.data.set([red, green, blue, 255], at);
  return PNG.sync.write(png);
}

export interface FakeTileServer {
  /** the URL template to put in MAP_TILES_URL */
  template: string;
  /** z/x/y and the key of every tile request, oldest first */
  requests: { z: number; x: number; y: number; key: string | null }[];
  /** the most requests in progress at one time */
  mostAtOnce: number;
  answer: FakeAnswer;
  close(): Promise<void>;
}

/** Speaks the XYZ wire format: GET /tiles/{z}/{x}/{y}.png?key=K answered with a 256-pixel PNG tile, slightly late. */
export async function startFakeTileServer(): Promise<FakeTileServer> {
  let inProgress = 0;
  const tile = solidPng(256, 256, [170, 211, 223]);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [z, x, y] = (/^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url.pathname) ?? []).slice(1).map(Number);
    if (z === undefined || x === undefined || y === undefined) return void res.writeHead(404).end();
    fake.requests.push({ z, x, y, key: url.searchParams.get('key') });
    inProgress += 1;
    fake.mostAtOnce = Math.max(fake.mostAtOnce, inProgress);
    res.on('close', () => {
      inProgress -= 1;
    });
    const { answer } = fake;
    if (answer === 'hang') return;
    // A little latency, so parallel requests overlap as they would over a network.
    setTimeout(() => {
      if (answer === 'not-png') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>over quota</html>');
      if (typeof answer === 'object') return void res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end('Invalid key');
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(tile);
    }, 20);
  });
  const { origin, close } = await listenOnLoopback(server);
  const fake: FakeTileServer = {
    template: `${origin}/tiles/{z}/{x}/{y}.png?key={key}`,
    requests: [],
    mostAtOnce: 0,
    answer: 'png',
    close,
  };
  return fake;
}

export interface FakeGeoMaps {
  /** the endpoint to put in GEO_MAPS_ENDPOINT */
  endpoint: string;
  /** path, query and authorization header of every request, oldest first */
  requests: { path: string; query: URLSearchParams; authorization: string | undefined }[];
  answer: FakeAnswer;
  close(): Promise<void>;
}

/**
 * Speaks GetStaticMap's REST wire format: GET /v2/static/map?center=lng,lat&zoom=..&width=..&height=..
 * signed with SigV4, answered with the image and its pricing header, or an error as the service sends
 * it (the x-amzn-errortype header and a JSON message).
 */
export async function startFakeGeoMaps(image: { bytes: Buffer; mediaType: string }): Promise<FakeGeoMaps> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    const { answer } = fake;
    if (answer === 'hang') return;
    if (answer === 'not-png')
      return void res.writeHead(200, { 'Content-Type': 'text/html', 'x-amz-geo-pricing-bucket': 'Static' }).end('<html></html>');
    if (typeof answer === 'object') {
      const type =
        answer.status === 403 ? 'AccessDeniedException' : answer.status === 429 ? 'ThrottlingException' : 'InternalServerException';
      return void res
        .writeHead(answer.status, { 'Content-Type': 'application/json', 'x-amzn-errortype': type })
        .end(JSON.stringify({ message: 'User is not authorized to perform: geo-maps:GetStaticMap' }));
    }
    res
      .writeHead(200, { 'Content-Type': image.mediaType, 'x-amz-geo-pricing-bucket': 'Static', 'Cache-Control': 'max-age=86400' })
      .end(image.bytes);
  });
  const { origin, close } = await listenOnLoopback(server);
  const fake: FakeGeoMaps = {
    endpoint: origin,
    requests: [],
    answer: 'png',
    close,
  };
  return fake;
}
