/**
 * A dependency that accepts connections and never answers, or cannot be reached at all. Each case runs the
 * real handlers in an emulator of their own (a child process) whose environment points one endpoint at a
 * silent TCP server on 127.0.0.1; everything else is the run's local stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { limits } from '../../shared/config.ts';
import type { ApiResponse } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { type IsolatedEmulator, type SilentServer, startIsolatedEmulator, startSilentServer } from '../support/isolated-emulator.ts';
import { givenPlacedVehicle } from '../support/live-map-builders.ts';
import { rawStops, stopsText } from '../support/routes-builders.ts';

const UNAVAILABLE = 'service unavailable, retry later';
/** Two silent attempts of awsRequestTimeoutMs each, plus back-off and the emulator's own work. */
const FAIL_FAST_MS = limits.awsMaxAttempts * limits.awsRequestTimeoutMs + 1_000;

let silent: SilentServer;
const emulators: IsolatedEmulator[] = [];

beforeAll(async () => {
  silent = await startSilentServer();
});

afterAll(async () => {
  await Promise.all(emulators.map((emulator) => emulator.stop()));
  await silent.close();
});

async function emulatorWith(env: Record<string, string>): Promise<IsolatedEmulator> {
  const emulator = await startIsolatedEmulator(env);
  emulators.push(emulator);
  return emulator;
}

/** The response and how long it took. */
async function timed(call: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const started = performance.now();
  const res = await call();
  return { res, ms: performance.now() - started };
}

describe('a hung DynamoDB', () => {
  it('answers reads and writes with 503 within about 3 s, well inside the function timeout', async () => {
    // Prepare
    const { api } = await emulatorWith({ DYNAMODB_ENDPOINT: silent.endpoint });
    expect(await api.get('getExpenseTypes')).toBeError(401, 'api key missing'); // loads the handler, touches no dependency
    const connectionsBefore = silent.connections;
    // Act
    const read = await timed(() => api.get('getExpenseTypes', { api_key: 'some-key' }));
    const write = await timed(() => api.post('addExpenseType', { api_key: 'some-key', expense_name: 'Tolls' }));
    // Assess
    for (const { res, ms } of [read, write]) {
      expect(res).toBeError(503, UNAVAILABLE);
      expect(ms).toBeGreaterThanOrEqual(limits.awsRequestTimeoutMs);
      expect(ms).toBeLessThan(FAIL_FAST_MS);
    }
    expect(silent.connections).toBeGreaterThan(connectionsBefore);
    expect(FAIL_FAST_MS).toBeLessThan(limits.functionTimeoutSeconds * 1000);
  });
});

describe('an unreachable DynamoDB', () => {
  it('answers 503 at once', async () => {
    const { api } = await emulatorWith({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${await freePort()}` });
    const { res, ms } = await timed(() => api.get('getVehicles', { api_key: 'some-key' }));
    expect(res).toBeError(503, UNAVAILABLE);
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });
});

describe('a hung S3', () => {
  it('answers getLiveMap with 503 within about 3 s', async () => {
    // Prepare
    const user = await givenUser();
    await givenPlacedVehicle(user, { lat: 52.1, lng: 5.1 });
    const { api } = await emulatorWith({ S3_ENDPOINT: silent.endpoint, LIVE_MAP_PROVIDER: 'offline' });
    expect(await api.get('getLiveMap')).toBeError(401, 'api key missing');
    // Act
    const { res, ms } = await timed(() => api.get('getLiveMap', { api_key: user.key, map_api_key: 'map-key' }));
    // Assess
    expect(res).toBeError(503, UNAVAILABLE);
    expect(ms).toBeLessThan(FAIL_FAST_MS);
  });
});

describe('a hung Secrets Manager', () => {
  it('answers addRoute with the Google provider with 503 within about 3 s, creating no route', async () => {
    // Prepare
    const user = await givenUser();
    const { api } = await emulatorWith({
      DIRECTIONS_PROVIDER: 'google',
      GOOGLE_DIRECTIONS_URL: silent.endpoint,
      GOOGLE_DIRECTIONS_API_KEY_SECRET: 'fleet-tracking/google-directions',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: silent.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    expect(await api.post('addRoute')).toBeError(401, 'api key missing');
    // Act
    const { res, ms } = await timed(() => api.post('addRoute', { api_key: user.key, route_name: 'R', stops: stopsText(rawStops(2)) }));
    // Assess
    expect(res).toBeError(503, UNAVAILABLE);
    expect(ms).toBeLessThan(FAIL_FAST_MS);
    const routes = await api.get('getRoutes', { api_key: user.key });
    expect(routes.body.routes).toEqual([]);
  });
});
