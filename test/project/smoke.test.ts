/**
 * `npm run smoke` against the local stack, as a child process the way an operator runs it after `cdk deploy`, so the
 * script stays true as operations are added: its checks come from the registry, and this test holds it to the registry.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Operation, operations } from '../../functions/registry.ts';
import { localPipelineSink } from '../../shared/devices/local-sink.ts';
import { startTeltonikaListener, type TeltonikaListener } from '../../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../../shared/store/vehicles.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenDeviceToken } from '../support/device-builders.ts';

const run = promisify(execFile);

/** The script's exit code and the lines it printed. */
async function smoke(args: string[]): Promise<{ code: number; lines: string[] }> {
  const done = await run(process.execPath, ['scripts/smoke.ts', ...args]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  return { code: done.code, lines: done.stdout.trim().split('\n') };
}

let listener: TeltonikaListener;

beforeAll(async () => {
  listener = await startTeltonikaListener({ port: 0, host: '127.0.0.1', sink: localPipelineSink(), findDevice: findVehicleByImei });
});
afterAll(() => listener.close());

describe('npm run smoke against the local stack', () => {
  let user: TestUser;
  let result: { code: number; lines: string[] };

  beforeAll(async () => {
    user = await givenUser();
    await givenVehicle(user);
    const token = await givenDeviceToken(user);
    result = await smoke([
      '--url',
      `${inject('apiUrl')}/api/`,
      '--key',
      user.key,
      '--device-token',
      token,
      // locally one emulator serves /devices/ for both of the deployed stack's gateways
      '--devices-http-url',
      `${inject('apiUrl')}/devices/`,
      '--teltonika-host',
      `127.0.0.1:${listener.port}`,
    ]);
  }, 120_000);

  it('passes every check and exits 0', () => {
    expect(
      result.lines.filter((line) => line.startsWith('FAIL')),
      result.lines.join('\n'),
    ).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.lines.at(-1)).toMatch(/^\d+ checks: \d+ passed, 0 failed, \d+ skipped$/);
  });

  it('reads every read operation of the registry', () => {
    // a person's reads refuse the run's key: their line is the refusal's (the writes' test below reads it too)
    const reads = (operations as readonly Operation[])
      .filter((operation) => operation.method === 'GET')
      .map((operation) => (operation.personOnly ? `ok    ${operation.name} refuses an api key:` : `ok    read ${operation.name}:`));
    for (const read of reads)
      expect(
        result.lines.some((line) => line.startsWith(read)),
        read,
      ).toBe(true);
  });

  it('calls every write operation of the registry, or says why it leaves one out', () => {
    for (const { name } of operations.filter((operation) => operation.method === 'POST')) {
      expect(
        result.lines.some((line) => new RegExp(`^(ok|skip) +${name}[: ]`).test(line)),
        name,
      ).toBe(true);
    }
  });

  it('sends a point through osmand and traccar at both devices URLs, and a Teltonika packet', () => {
    const httpChecks = ['osmand', 'traccar'].flatMap((entry) =>
      ['DevicesHttpUrl', 'DevicesUrl'].map((output) => `device point through ${entry} (${output})`),
    );
    for (const check of [...httpChecks, 'teltonika packet']) {
      expect(
        result.lines.some((line) => line.startsWith(`ok    ${check}:`)),
        check,
      ).toBe(true);
    }
  });

  it('leaves none of its records behind', async () => {
    const [types, operators, locations, routes] = await Promise.all([
      api.get('getExpenseTypes', { api_key: user.key }),
      api.get('getOperators', { api_key: user.key }),
      api.get('getUserLocations', { api_key: user.key }),
      api.get('getRoutes', { api_key: user.key }),
    ]);
    expect(types.body.expense_types).toEqual([expect.objectContaining({ type: 2 })]);
    expect(operators.body.operators).toEqual([]);
    expect(locations.body.locations).toEqual([]);
    expect(routes.body.routes).toEqual([]);
  });
});

describe('npm run smoke with a key the stack does not know', () => {
  it('prints a failing line per check and exits 1', async () => {
    // Act
    const { code, lines } = await smoke(['--url', inject('apiUrl'), '--key', 'not-a-key-of-this-stack']);
    // Assess
    expect(code).toBe(1);
    expect(lines.filter((line) => line.startsWith('FAIL  read getVehicles: 401 unknown api key,'))).toHaveLength(1);
    // a person's operations refuse any api key, known or not, before looking it up: those checks pass, and only those
    const personChecks = (operations as readonly Operation[]).filter((operation) => operation.personOnly).length;
    expect(lines.at(-1)).toMatch(new RegExp(`^\\d+ checks: ${personChecks} passed, \\d+ failed, \\d+ skipped$`));
  });
});
