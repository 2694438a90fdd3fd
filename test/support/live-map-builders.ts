/** A fake Google Static Maps on 127.0.0.1, vehicles placed on the map, and the cached maps in S3. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PNG } from 'pngjs';
import type { LiveState, Vehicle } from '../../shared/domain/vehicle.ts';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { givenLiveState, givenVehicle, type TestUser } from './builders.ts';

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
      return void res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end('The Google Maps Platform server rejected your request.');
    }
    const [width, height] = (query.get('size') ?? '1x1').split('x').map(Number);
    const png = new PNG({ width, height });
    // Each answer is a different colour, so a test can tell a fresh picture from a cached one.
    png.data.fill(fake.served.length % 256);
    const bytes = PNG.sync.write(png);
    fake.served.push(bytes);
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeStaticMaps = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/maps/api/staticmap`,
    requests: [],
    served: [],
    answer: 'png',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
