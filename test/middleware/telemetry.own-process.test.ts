/**
 * Powertools in the chain, seen from outside: a real call through an API emulator started in this worker, with
 * logs and metrics switched on here (the run's shared stack silences them), reading what lands on stdout.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

const { startApiEmulator } = await import('../../local/api-emulator.ts');
const { freePort } = await import('../../local/stack.ts');
const { createApi } = await import('../support/api.ts');
const { givenUser, givenVehicle } = await import('../support/builders.ts');
const { createDevices, givenDeviceToken } = await import('../support/device-builders.ts');
const { givenSignedInPerson } = await import('../support/sign-in.ts');
const { handler: processPositions } = await import('../../functions/processPositions/handler.ts');
const { lambdaContext } = await import('../../local/api-gateway-event.ts');

let emulator: Awaited<ReturnType<typeof startApiEmulator>>;
const api = createApi(() => emulator.url);
const devices = createDevices(() => emulator.url);

beforeAll(async () => {
  emulator = await startApiEmulator({ port: await freePort() });
});
afterAll(() => emulator.close());

/** Every line the call writes to stdout or stderr (Powertools writes warnings and errors there). */
async function outputOf(act: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  const writes = [
    vi.spyOn(process.stdout, 'write').mockImplementation(capture),
    vi.spyOn(process.stderr, 'write').mockImplementation(capture),
  ];
  try {
    await act();
  } finally {
    for (const write of writes) write.mockRestore();
  }
  return lines;
}

/** Every JSON line of outputOf. */
async function stdoutOf(act: () => Promise<unknown>): Promise<Record<string, any>[]> {
  return (await outputOf(act)).flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

const metricBlobs = (lines: Record<string, any>[]) => lines.filter((line) => line._aws?.CloudWatchMetrics);

describe('telemetry of an API call', () => {
  it('writes one metric blob with the request count and latency under the operation dimension', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const lines = await stdoutOf(() => api.get('getVehicles', { api_key: user.key }));
    // Assess
    const blob = metricBlobs(lines).find((line) => line.Requests !== undefined);
    expect(blob).toMatchObject({ operation: 'getVehicles', service: 'fleet-tracking', Requests: 1, Latency: expect.any(Number) });
    expect(blob?._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'FleetTracking', Dimensions: [['service', 'operation']] });
  });

  it('counts an error under its class', async () => {
    // Act
    const lines = await stdoutOf(() => api.get('getVehicles', { api_key: 'no-such-key' }));
    // Assess
    const blob = metricBlobs(lines).find((line) => line.Errors !== undefined);
    expect(blob).toMatchObject({ operation: 'getVehicles', errorClass: 'Unauthorized', Errors: 1 });
  });

  it('logs the answered request with the request id, operation, cold start and user, never the key', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const lines = await stdoutOf(() => api.get('getVehicles', {}, { headers: { 'X-Api-Key': user.key } }));
    // Assess
    const logLine = lines.find((line) => line.message === 'request answered');
    expect(logLine).toMatchObject({
      level: 'INFO',
      service: 'fleet-tracking',
      operation: 'getVehicles',
      user_uid: user.userUid,
      status: 200,
      function_request_id: expect.any(String),
      cold_start: expect.any(Boolean),
    });
    expect(JSON.stringify(lines)).not.toContain(user.key);
  });

  it("never logs a person's access token, accepted or refused", async () => {
    // Prepare
    const user = await givenUser();
    const { accessToken } = await givenSignedInPerson(emulator.url, user);
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    // Act
    const lines = await stdoutOf(async () => {
      await api.get('getVehicles', {}, { headers: { Authorization: `Bearer ${accessToken}` } });
      await api.get('getVehicles', {}, { headers: { Authorization: `Bearer ${tampered}` } });
    });
    // Assess
    expect(lines.filter((line) => line.message === 'request answered').map((line) => line.status)).toEqual([200, 401]);
    const logged = JSON.stringify(lines);
    for (const part of accessToken.split('.')) expect(logged).not.toContain(part);
  });
});

describe('telemetry of a device report', () => {
  /** A phone whose container has already seen its token, IMEI and buckets, as a warm function's next report. */
  async function givenReportingPhone() {
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const token = await givenDeviceToken(user);
    const report = () => devices.osmand(token, { query: { id: vehicle.imei, lat: 60, lon: 30, timestamp: '2026-03-01T10:00:00Z' } });
    await report();
    return { report, vehicle, token };
  }

  it('leaves no line of its own when the report is taken, not even a warning that it had no metrics', async () => {
    // Prepare
    const { report } = await givenReportingPhone();
    // Act
    let status = 0;
    const lines = await outputOf(async () => {
      status = (await report()).status;
    });
    // Assess: the HTTP API's access log has the request, the pipeline's PositionsReceived its position
    expect(status).toBe(200);
    expect(lines.filter((line) => line.includes('osmandPositions') || line.includes('metrics'))).toEqual([]);
  });

  it('counts a refused report under its class, and the positions it refused', async () => {
    // Prepare
    const { token } = await givenReportingPhone();
    const stranger = await givenVehicle(await givenUser());
    // Act
    const lines = await stdoutOf(() => devices.osmand(token, { query: { id: stranger.imei, lat: 60, lon: 30 } }));
    // Assess
    expect(metricBlobs(lines).find((line) => line.Errors !== undefined)).toMatchObject({
      operation: 'osmandPositions',
      errorClass: 'NotFound',
      Errors: 1,
    });
    expect(metricBlobs(lines).find((line) => line.DevicePositionsRefused !== undefined)).toMatchObject({ DevicePositionsRefused: 1 });
    expect(metricBlobs(lines).some((line) => line.Requests !== undefined || line.Latency !== undefined)).toBe(false);
  });
});

describe('telemetry of a positions batch', () => {
  it("publishes the batch's counts in one metric blob and logs rejections with the Lambda context", async () => {
    // Prepare
    const event = {
      Records: ['not json', '{"imei":"000000000000000"}'].map((data, i) => ({
        eventID: `shardId-000000000000:telemetry-${i}`,
        kinesis: { sequenceNumber: `telemetry-${Date.now()}-${i}`, data: Buffer.from(data).toString('base64') },
      })),
    } as unknown as Parameters<typeof processPositions>[0];
    // Act
    const lines = await stdoutOf(() => processPositions(event, lambdaContext('processPositions', 'telemetry-batch')));
    // Assess
    expect(metricBlobs(lines).find((line) => line.PositionsReceived !== undefined)).toMatchObject({
      service: 'fleet-tracking',
      PositionsReceived: 2,
      PositionsRejected: 2,
      PositionsFailed: 0,
    });
    expect(lines.find((line) => line.message === 'positions rejected')).toMatchObject({
      level: 'WARN',
      operation: 'processPositions',
      function_request_id: 'telemetry-batch',
      cold_start: expect.any(Boolean),
    });
  });
});
