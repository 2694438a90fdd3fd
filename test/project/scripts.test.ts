import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { givenUser } from '../support/builders.ts';

const run = promisify(execFile);

/** Every script a user runs through npm: `npm run <name>` runs `node scripts/<name>.ts`. */
const scripts = [
  'admin',
  'simulate',
  'invoke',
  'ingest',
  'make-event',
  'make-kinesis-event',
  'docs',
  'openapi',
  'bench',
  'check-java',
  'smoke',
  'events',
];

/** A script run as npm runs it (no shell, this Node), its exit code and output. */
async function script(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [`scripts/${name}.ts`, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('every script', () => {
  it.each(scripts)('%s answers --help with how to call it', async (name) => {
    // Act
    const result = await script(name, ['--help']);
    // Assess
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`npm run ${name}`);
  });

  it.each(scripts)('%s refuses an unknown option in one JSON line', async (name) => {
    // Act
    const result = await script(name, ['--frobnicate']);
    // Assess
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${JSON.stringify({ error: '--frobnicate is not an option; see --help' })}\n` });
  });
});

describe('a script that needs the local stack', () => {
  it.each([
    ['admin', ['user', 'create', '--name', 'Nobody']],
    ['simulate', ['--date', '2026-11-20']],
    ['invoke', ['getVehicles', 'events/getVehicles.json']],
    ['ingest', ['--file', 'package.json']],
  ])('%s asks whether npm start is running when DynamoDB Local does not answer', async (name, args) => {
    // Prepare
    const nothingThere = `http://127.0.0.1:${await freePort()}`;
    // Act
    const result = await script(name, args, { ...process.env, DYNAMODB_ENDPOINT: nothingThere });
    // Assess
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      JSON.stringify({ error: `nothing answers at ${nothingThere} (DynamoDB Local): is \`npm start\` running (and with the same ports)?` }),
    ]);
  });
});

describe('invoke', () => {
  it('exits 0 and prints the answer when the handler succeeds', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const result = await script('invoke', ['getVehicles', 'events/getVehicles.json'], { ...process.env, API_KEY: user.key });
    // Assess
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ statusCode: 200, body: { result: 'success', vehicles: [] } });
  });

  it('exits 1 when the handler answers an error', async () => {
    // Act
    const result = await script('invoke', ['getVehicles', 'events/getVehicles.json'], { ...process.env, API_KEY: 'no-such-key' });
    // Assess
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ statusCode: 401, body: { result: 'error', error_msg: 'unknown api key' } });
  });
});
