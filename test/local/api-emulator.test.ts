import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApiEmulator } from '../../local/api-emulator.ts';
import { SYNTH_TIMEOUT_MS } from '../infra/service-template.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { type SilentServer, startIsolatedEmulator, startSilentServer } from '../support/isolated-emulator.ts';
import { givenPlacedVehicle } from '../support/live-map-builders.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** the local port of the connection that carried it */
  localPort: number;
}

/** One request over the given agent (keep-alive, so a connection is reused when the server allows it). */
function send(agent: Agent, path: string, { method = 'GET', body }: { method?: string; body?: Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${inject('apiUrl')}${path}`,
      { agent, method, headers: body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': body.length } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            localPort: res.socket?.localPort ?? 0,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes raw bytes on a fresh connection and reads until the server closes it. */
function rawExchange(bytes: string): Promise<string> {
  const { port, hostname } = new URL(inject('apiUrl'));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

const envelope = (message: string) => ({ version: '1', result: 'error', error_msg: message });

describe('the local API Gateway emulator', () => {
  it('answers an unknown operation or path with a 404 envelope', async () => {
    expect(await api.get('noSuchOperation')).toBeError(404, 'unknown operation');
    const res = await fetch(`${inject('apiUrl')}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ version: '1', result: 'error', error_msg: 'unknown operation' });
  });

  it('refuses to start on a port something already listens on, with the error rather than a crash of the process', async () => {
    // Prepare
    const takenPort = Number(new URL(inject('apiUrl')).port);

    // Act
    const starting = startApiEmulator({ port: takenPort });

    // Assess
    await expect(starting).rejects.toThrow(/EADDRINUSE/);
  });

  it('passes the last value of a repeated query parameter, as API Gateway does', async () => {
    const user = await givenUser();
    const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes?api_key=wrong&api_key=${user.key}`);
    expect(res.status).toBe(200);
  });

  it('passes query parameters named like Object.prototype members to the handler', async () => {
    const user = await givenUser();
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes?api_key=${user.key}&${name}=1&${name}=2`);
      expect(res.status, name).toBe(200);
    }
  });

  it('turns a body over the service limit into a 413 envelope', async () => {
    const user = await givenUser();
    const res = await api.post('addExpenseType', { api_key: user.key, expense_name: 'x'.repeat(300 * 1024) });
    expect(res).toBeError(413, 'request body too large (max 256 KB)');
  });

  it('serves a trailing slash like the plain path', async () => {
    const user = await givenUser();
    const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes/?api_key=${user.key}`);
    expect(res.status).toBe(200);
  });
});

describe("the emulator's connections", () => {
  it('closes the connection after a body over the service limit, and the next request works on a new one', async () => {
    // Prepare
    const user = await givenUser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const oversized = Buffer.from(`api_key=${user.key}&expense_name=${'x'.repeat(300 * 1024)}`);
    // Act
    const refused = await send(agent, '/api/addExpenseType', { method: 'POST', body: oversized });
    const next = await send(agent, `/api/getExpenseTypes?api_key=${user.key}`);
    // Assess
    expect(refused).toMatchObject({ status: 413, body: envelope('request body too large (max 256 KB)') });
    expect(refused.headers.connection).toBe('close');
    expect(next.status).toBe(200);
    agent.destroy();
  });

  it("answers a body over API Gateway's 10 MB with 413 after reading it, closing the connection, and the next request works", async () => {
    const user = await givenUser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send(agent, '/api/addExpenseType', { method: 'POST', body: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
    const next = await send(agent, `/api/getExpenseTypes?api_key=${user.key}`);
    expect(refused).toMatchObject({ status: 413, body: envelope('request body too large') });
    expect(refused.headers.connection).toBe('close');
    expect(next.status).toBe(200);
    agent.destroy();
  });

  it('keeps a healthy connection open between requests', async () => {
    const user = await givenUser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await send(agent, `/api/getExpenseTypes?api_key=${user.key}`);
    const second = await send(agent, `/api/getExpenseTypes?api_key=${user.key}`);
    expect(first.headers.connection).not.toBe('close');
    expect(second.localPort).toBe(first.localPort);
    agent.destroy();
  });

  it("answers a header block over Node's limit with a 431 envelope and closes the connection", async () => {
    // Act
    const answer = await rawExchange(`GET /api/getExpenseTypes HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'p'.repeat(64 * 1024)}\r\n\r\n`);
    const next = await api.get('getExpenseTypes');
    // Assess
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(head).toMatch(/\r\nContent-Type: application\/json/i);
    expect(JSON.parse(body as string)).toEqual(envelope('request headers too large'));
    expect(next).toBeError(401, 'api key missing');
  });

  it("lets a request line and header values of exactly API Gateway's 10240 bytes through, and answers one byte more with 431", async () => {
    // Prepare: the request line (33 bytes) and the values of Host (9) and Connection (5) count, header names do not
    const requestWith = (padding: number) =>
      `GET /api/getExpenseTypes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Padding: ${'p'.repeat(padding)}\r\n\r\n`;
    // Act
    const atLimit = await rawExchange(requestWith(10_240 - 33 - 9 - 5));
    const overLimit = await rawExchange(requestWith(10_240 - 33 - 9 - 5 + 1));
    // Assess
    expect(atLimit).toMatch(/^HTTP\/1\.1 401 /);
    expect(overLimit).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(overLimit.split('\r\n\r\n')[1] as string)).toEqual(envelope('request headers too large'));
  });

  it("counts the query string in API Gateway's 10240 bytes, so a URL over a regional API's 10240 characters is refused", async () => {
    // Act
    const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes?api_key=${'k'.repeat(10_240)}`);
    // Assess
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual(envelope('request headers too large'));
  });

  it("answers a body whose event is over Lambda's 6 MiB request limit with API Gateway's 413, without running the function", async () => {
    // Prepare
    const user = await givenUser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Act
    const refused = await send(agent, '/api/addExpenseType', { method: 'POST', body: Buffer.alloc(6 * 1024 * 1024, 'a') });
    const next = await send(agent, `/api/getExpenseTypes?api_key=${user.key}`);
    // Assess: the function's own answer would name its 256 KB
    expect(refused).toMatchObject({ status: 413, body: envelope('request body too large') });
    expect(next.status).toBe(200);
    agent.destroy();
  });

  it('answers a request Node cannot parse with a 400 envelope', async () => {
    const answer = await rawExchange('NOT A REQUEST\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body as string)).toEqual(envelope('bad request'));
  });
});

describe("the emulator's function timeout", () => {
  let silent: SilentServer;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(() => silent.close());

  // Other provider settings than the run's: the emulator synthesizes the stack for its policies (local/iam/local-iam.ts).
  it(
    'gives a handler the configured timeout as its deadline: one still waiting answers 503, and the next request is served',
    async () => {
      // Prepare: a map provider that never answers, and a provider timeout beyond the test's, so only the deadline can answer
      const user = await givenUser();
      await givenPlacedVehicle(user, { lat: 52.1, lng: 5.1 });
      const emulator = await startIsolatedEmulator({
        EMULATOR_FUNCTION_TIMEOUT_MS: '1500',
        LIVE_MAP_PROVIDER: 'google',
        GOOGLE_STATIC_MAPS_URL: silent.endpoint,
        PROVIDER_TIMEOUT_MS: '600000',
      });
      try {
        // Act
        const started = performance.now();
        const res = await emulator.api.get('getLiveMap', { api_key: user.key, map_api_key: 'map-key' });
        const ms = performance.now() - started;
        const next = await emulator.api.get('getExpenseTypes', { api_key: user.key });
        // Assess
        // middy ends the handler just before the deadline Lambda would enforce; the error mapper answers
        expect(res).toBeError(503, 'service unavailable, retry later');
        expect(ms).toBeGreaterThanOrEqual(1_400);
        expect(next).toBeSuccess();
      } finally {
        await emulator.stop();
      }
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe("the emulator's AWS limits", () => {
  let silent: SilentServer;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(() => silent.close());

  it("answers a Lambda response over Lambda's limit with API Gateway's 502, and the same answer gzip-compressed within it", async () => {
    // Prepare: five vehicles answer about 3 KB of JSON, and gzip makes that well under 1 KB
    const user = await givenUser();
    for (let n = 0; n < 5; n++) await givenVehicle(user);
    const emulator = await startIsolatedEmulator({ EMULATOR_LAMBDA_RESPONSE_BYTES: '2500' });
    try {
      // Act
      const plain = await emulator.api.get('getVehicles', { api_key: user.key }, { headers: { 'Accept-Encoding': 'identity' } });
      const gzip = await emulator.api.get('getVehicles', { api_key: user.key }, { headers: { 'Accept-Encoding': 'gzip' } });
      // Assess
      expect(plain).toBeError(502, 'internal error');
      expect(plain.headers.get('content-type')).toBe('application/json');
      expect(gzip).toBeSuccess();
      expect(gzip.body.cnt).toBe(5);
    } finally {
      await emulator.stop();
    }
  });

  // Other provider settings than the run's: the emulator synthesizes the stack for its policies (local/iam/local-iam.ts).
  it(
    "answers a request still running at the integration timeout with API Gateway's 504, and serves the next",
    async () => {
      // Prepare: a map provider that never answers, and an integration timeout shorter than the function's
      const user = await givenUser();
      await givenPlacedVehicle(user, { lat: 52.1, lng: 5.1 });
      const emulator = await startIsolatedEmulator({
        EMULATOR_INTEGRATION_TIMEOUT_MS: '400',
        LIVE_MAP_PROVIDER: 'google',
        GOOGLE_STATIC_MAPS_URL: silent.endpoint,
      });
      try {
        // Act
        const started = performance.now();
        const res = await emulator.api.get('getLiveMap', { api_key: user.key, map_api_key: 'map-key' });
        const ms = performance.now() - started;
        const next = await emulator.api.get('getExpenseTypes', { api_key: user.key });
        // Assess
        expect(res).toBeError(504, 'request timed out');
        // the function's own deadline (10 s) would have answered 503: the 504 is the integration timeout's
        expect(ms).toBeGreaterThanOrEqual(380);
        expect(next).toBeSuccess();
      } finally {
        await emulator.stop();
      }
    },
    SYNTH_TIMEOUT_MS,
  );
});
