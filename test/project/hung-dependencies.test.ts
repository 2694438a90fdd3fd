/**
 * A dependency that accepts connections and never answers, or cannot be reached at all. Each case runs the
 * real handlers in an emulator of their own (a child process) whose environment points one endpoint at a
 * silent TCP server on 127.0.0.1; everything else is the run's local stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { limits } from '../../shared/config.ts';
import { SYNTH_TIMEOUT_MS } from '../infra/service-template.ts';
import type { ApiResponse } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { type IsolatedEmulator, type SilentServer, startIsolatedEmulator, startSilentServer } from '../support/isolated-emulator.ts';
import { givenPlacedVehicle } from '../support/live-map-builders.ts';
import { rawStops, stopsText } from '../support/routes-builders.ts';

const UNAVAILABLE = 'service unavailable, retry later';
/** Every attempt on a silent server waits out its whole request timeout: 2 × 1.5 s with the project's settings. */
const ALL_ATTEMPTS_MS = limits.awsMaxAttempts * limits.awsRequestTimeoutMs;
/**
 * What the SDK's back-off between attempts and the emulator's own work may add, by design: that work includes loading a
 * provider's SDK module on its first call. How long the answer takes on a given machine is `npm run bench`'s to say.
 */
const OVERHEAD_MS = 2_000;

/**
 * Answered only after every attempt timed out (no test bounds how much later: a busy machine answers later, and the
 * 503 itself says the deadline came before the function's, whose timeout answers otherwise).
 */
function expectAllAttemptsWaitedOut(ms: number): void {
  expect(ms).toBeGreaterThanOrEqual(ALL_ATTEMPTS_MS);
}

let silent: SilentServer;
const emulators: IsolatedEmulator[] = [];

beforeAll(async () => {
  silent = await startSilentServer();
});

afterAll(async () => {
  await Promise.all(emulators.map((emulator) => emulator.stop()));
  await silent.close();
});

/** An emulator with `env`, waiting on a connection and an attempt as long as a deployed function (the run's own waits are longer). */
async function emulatorWith(env: Record<string, string>): Promise<IsolatedEmulator> {
  const deployed = {
    AWS_CONNECTION_TIMEOUT_MS: String(limits.awsConnectionTimeoutMs),
    AWS_REQUEST_TIMEOUT_MS: String(limits.awsRequestTimeoutMs),
    AWS_MAX_ATTEMPTS: String(limits.awsMaxAttempts),
  };
  const emulator = await startIsolatedEmulator({ ...deployed, ...env });
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
  it('answers reads and writes with 503 once each of the 2 attempts has waited its 1.5 s, well inside the function timeout', async () => {
    // Prepare
    const { api } = await emulatorWith({ DYNAMODB_ENDPOINT: silent.endpoint });
    expect(await api.get('getExpenseTypes')).toBeError(401, 'api key missing'); // loads the handler, touches no dependency
    const attempts = async (call: () => Promise<ApiResponse>) => {
      const before = silent.connections;
      const answer = await timed(call);
      return { ...answer, connections: silent.connections - before };
    };
    // Act
    const read = await attempts(() => api.get('getExpenseTypes', { api_key: 'some-key' }));
    const write = await attempts(() => api.post('addExpenseType', { api_key: 'some-key', expense_name: 'Tolls' }));
    // Assess
    for (const { res, ms, connections } of [read, write]) {
      expect(res).toBeError(503, UNAVAILABLE);
      // one call, the key lookup (the rate limit takes a bucket only for a key found), making every attempt
      expect(connections).toBe(limits.awsMaxAttempts);
      expectAllAttemptsWaitedOut(ms);
    }
    expect(ALL_ATTEMPTS_MS + OVERHEAD_MS).toBeLessThan(limits.functionTimeoutSeconds * 1000);
  });
});

describe('an unreachable DynamoDB', () => {
  it('answers 503 when every attempt is refused a connection', async () => {
    // Prepare
    const { api } = await emulatorWith({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${await freePort()}` });
    expect(await api.get('getVehicles')).toBeError(401, 'api key missing');
    // Act
    const res = await api.get('getVehicles', { api_key: 'some-key' });
    // Assess
    expect(res).toBeError(503, UNAVAILABLE);
  });
});

describe('a hung S3', () => {
  // Other provider settings than the run's: the emulator synthesizes the stack for its policies (local/iam/local-iam.ts).
  it(
    'answers getLiveMap with 503 once each attempt has waited out its request timeout',
    async () => {
      // Prepare
      const user = await givenUser();
      await givenPlacedVehicle(user, { lat: 52.1, lng: 5.1 });
      const { api } = await emulatorWith({ S3_ENDPOINT: silent.endpoint, LIVE_MAP_PROVIDER: 'offline' });
      expect(await api.get('getLiveMap')).toBeError(401, 'api key missing');
      // Act
      const { res, ms } = await timed(() => api.get('getLiveMap', { api_key: user.key, map_api_key: 'map-key' }));
      // Assess
      expect(res).toBeError(503, UNAVAILABLE);
      expectAllAttemptsWaitedOut(ms);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe('a hung Secrets Manager', () => {
  // Other provider settings than the run's: the emulator synthesizes the stack for its policies (local/iam/local-iam.ts).
  it(
    'answers addRoute with the Google provider with 503 once each attempt has waited out its timeout, creating no route',
    async () => {
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
      expectAllAttemptsWaitedOut(ms);
      const routes = await api.get('getRoutes', { api_key: user.key });
      expect(routes.body.routes).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );
});
