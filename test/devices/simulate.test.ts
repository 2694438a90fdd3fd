import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTeltonikaListener, type TeltonikaListener } from '../../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../../shared/store/vehicles.ts';
import { createApi } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { switchableSink } from '../support/teltonika.ts';

const run = promisify(execFile);
const api = createApi(() => inject('apiUrl'));
let listener: TeltonikaListener;

beforeAll(async () => {
  listener = await startTeltonikaListener({ port: 0, host: '127.0.0.1', sink: switchableSink(), findDevice: findVehicleByImei });
});
afterAll(() => listener.close());

/** `npm run simulate -- …` as npm runs it; its exit code and output. */
async function simulate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/simulate.ts', ...args], { env: process.env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run simulate -- --protocol', () => {
  it("sends a demo vehicle's whole day as a Teltonika unit, every packet acknowledged and the day's trips detected", async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    // Act
    const result = await simulate(
      '--protocol',
      'teltonika',
      '--tcp',
      `127.0.0.1:${listener.port}`,
      '--imeis',
      vehicle.imei,
      '--date',
      '2026-03-02',
    );
    // Assess
    expect(result.code, result.stderr).toBe(0);
    const sent = JSON.parse(result.stdout);
    expect(sent).toMatchObject({ protocol: 'teltonika', vehicles: 1, packets_acked: Math.ceil(sent.records / 25) });
    const trips = await api.get('getTrips', { api_key: user.key, start_date: '2026-03-02', end_date: '2026-03-02' });
    expect(trips.body.vehicles[0].trip_cnt).toBeGreaterThan(0);
  });

  it.each([
    [['--protocol', 'gt06'], '--protocol must be one of osmand, traccar, teltonika'],
    [['--protocol', 'osmand', '--url', 'https://example.com/v1/'], '--token is required with --url (npm run admin -- device-token create)'],
    [['--protocol', 'teltonika', '--tcp', 'nohost'], '--tcp must be HOST:PORT'],
  ])('refuses %j in one JSON line', async (args, error) => {
    // Act
    const result = await simulate(...args);
    // Assess
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error })}\n` });
  });
});
