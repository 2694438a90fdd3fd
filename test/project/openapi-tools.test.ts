/**
 * The OpenAPI document as integrators' tools use it, with the tools themselves (devDependencies, offline):
 * redocly and spectral lint it; openapi-to-postmanv2 turns it into a collection that newman runs against a
 * fresh `npm start` (the demo the examples are written for) with only the API key set; and every request
 * goes through a Prism validating proxy, which must find no violation in the examples nor in the documented
 * error cases replayed after them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/ports.ts';
import { DELIVERIES_FOLDER, postmanCollection } from '../../scripts/postman.ts';
import type { OpenApiDocument, OperationObject } from '../../shared/openapi.ts';
import { signIn } from '../support/sign-in.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const requireModule = createRequire(import.meta.url);

/** A package's command, run by this Node (the project's 24) rather than whatever `node` is first on PATH. */
function binOf(pkg: string, name: string): string {
  const manifest = requireModule(`${pkg}/package.json`) as { bin: Record<string, string> };
  return join(dirname(requireModule.resolve(`${pkg}/package.json`)), manifest.bin[name] as string);
}

/** The tools must not phone home: no telemetry, no update checks. */
const OFFLINE_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  DISABLE_TELEMETRY: 'true',
};

interface Finished {
  code: number | null;
  output: string;
}

const children = new Set<ChildProcess>();

function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...OFFLINE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function run(args: string[]): Promise<Finished> {
  const child = start(args);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let output = '';
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.on('exit', (code) => reject(new Error(`exited (${code}) before ${pattern}:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

let workDir: string;
let apiUrl: string;
let prismUrl: string;
let apiKey: string;
/** the demo person's access token, for the operations only a signed-in person may call */
let accessToken: string;
let documentFile: string;
let document: OpenApiDocument;
/** The tools run side by side, each awaited by its own test. */
let lints: { redocly: Promise<Finished>; spectral: Promise<Finished> };
let newmanRun: Promise<Execution[]>;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'fleet-openapi-tools-'));
  const [apiPort, dynamoPort, s3Port, devicePort, prismPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  // A fresh `npm start`: the demo the examples are written for.
  const server = start(['local/start.ts'], {
    PORT: String(apiPort),
    DYNAMODB_PORT: String(dynamoPort),
    S3_PORT: String(s3Port),
    DEVICE_TCP_PORT: String(devicePort),
    LOCAL_DATA_DIR: join(workDir, 'local'),
  });
  const [, key, email, password] = await waitFor(server, /demo api key: (\S+)[\s\S]*sign in as (\S+), password (\S+)/);
  apiKey = key as string;
  apiUrl = `http://127.0.0.1:${apiPort}`;
  accessToken = (await signIn(apiUrl, email as string, password as string)).accessToken;
  document = (await (await fetch(`${apiUrl}/api/openapi.json`)).json()) as OpenApiDocument;
  documentFile = join(workDir, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(document, null, 2));
  lints = {
    redocly: run([binOf('@redocly/cli', 'redocly'), 'lint', documentFile, '--config', join(root, 'redocly.yaml')]),
    spectral: run([
      binOf('@stoplight/spectral-cli', 'spectral'),
      'lint',
      documentFile,
      '--ruleset',
      join(root, '.spectral.yaml'),
      '--fail-severity',
      'warn',
    ]),
  };
  const prism = start([
    binOf('@stoplight/prism-cli', 'prism'),
    'proxy',
    documentFile,
    apiUrl,
    '--host',
    '127.0.0.1',
    '--port',
    String(prismPort),
  ]);
  await waitFor(prism, /Prism is listening/);
  prismUrl = `http://127.0.0.1:${prismPort}`;
  newmanRun = runCollection();
  // Awaited by its tests; a failure before then must not count as unhandled.
  newmanRun.catch(() => undefined);
}, 120_000);

/** openapi-to-postmanv2's collection run by newman, the key set and the requests sent through the proxy. */
async function runCollection(): Promise<Execution[]> {
  const collectionFile = join(workDir, 'collection.json');
  writeFileSync(collectionFile, JSON.stringify(await postmanCollection(document)));
  const reportFile = join(workDir, 'newman.json');
  // The collection points at the server it was made from; only the proxy in front of it is the test's own.
  const { code, output } = await run([
    binOf('newman', 'newman'),
    'run',
    collectionFile,
    '--env-var',
    `apiKey=${apiKey}`,
    '--env-var',
    `bearerToken=${accessToken}`,
    '--env-var',
    `baseUrl=${prismUrl}`,
    // the operations' folders: the webhook deliveries' go to a receiver of the integrator's
    ...document.tags.flatMap(({ name }) => ['--folder', name]),
    '--reporters',
    'json',
    '--reporter-json-export',
    reportFile,
  ]);
  if (code !== 0) throw new Error(`newman failed (${code}):\n${output}`);
  return (JSON.parse(readFileSync(reportFile, 'utf8')) as { run: { executions: Execution[] } }).run.executions;
}

afterAll(async () => {
  await Promise.all([...children].map(stop));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('linting the document', () => {
  it('redocly lint (recommended rules) finds no error and no warning', async () => {
    // Act
    const { code, output } = await lints.redocly;
    // Assess
    expect(output).not.toMatch(/warning|error/i);
    expect(code, output).toBe(0);
  }, 60_000);

  it('spectral lint (the local oas ruleset) finds no error and no warning', async () => {
    // Act
    const { code, output } = await lints.spectral;
    // Assess
    expect(code, output).toBe(0);
  }, 60_000);
});

interface Execution {
  item: { name: string };
  request: { url: { path: string[] } };
  response?: { code: number; header: { key: string; value: string }[]; stream?: { data: number[] } };
}

const violationsIn = (headers: { key: string; value: string }[]): string | undefined =>
  headers.find(({ key }) => key.toLowerCase() === 'sl-violations')?.value;

describe('the Postman collection, run with newman through the Prism validating proxy', () => {
  let executions: Execution[];

  beforeAll(async () => {
    executions = await newmanRun;
  }, 120_000);

  it('has one request per operation, in folders by area, with the collection variables baseUrl and apiKey', async () => {
    // Act
    const collection = await postmanCollection(document);
    // Assess
    expect(collection.variable.map(({ key }) => key).sort()).toEqual(['apiKey', 'baseUrl', 'webhookUrl']);
    expect(collection.auth).toMatchObject({ type: 'apikey' });
    expect(collection.item.map(({ name }) => name)).toEqual([...document.tags.map(({ name }) => name), DELIVERIES_FOLDER]);
    expect(executions.map((execution) => execution.request.url.path.at(-1)).sort()).toEqual(
      Object.keys(document.paths)
        .map((path) => path.split('/').at(-1))
        .sort(),
    );
  });

  it("has a sample delivery of each of the document's webhooks, POSTed to webhookUrl with its example", async () => {
    // Act
    const deliveries = (await postmanCollection(document)).item.find(({ name }) => name === DELIVERIES_FOLDER);
    // Assess
    expect(deliveries?.item?.map(({ request }) => [request.method, request.url])).toEqual(
      Object.keys(document.webhooks).map(() => ['POST', '{{webhookUrl}}']),
    );
    const bodies = deliveries?.item?.map(({ request }) => JSON.parse((request.body as { raw: string }).raw).type);
    expect(bodies).toEqual(Object.keys(document.webhooks));
  });

  it('gets a success for every request as it comes, with no request or response violation', () => {
    for (const execution of executions) {
      const name = execution.request.url.path.at(-1);
      const answer = `${name}: ${Buffer.from(execution.response?.stream?.data ?? []).toString()}`;
      // A device token's id is its hash's first digits, so no example names one that exists: its example answers
      // not found here (test/operations/deleteDeviceToken.test.ts deletes a real one).
      expect(execution.response?.code, answer).toBe(name === 'deleteDeviceToken' ? 404 : 200);
      expect(violationsIn(execution.response?.header ?? []), name).toBeUndefined();
    }
  });
});

/** The documented error cases a request valid by the document can meet, built from each operation's example. */
function errorCases(
  path: string,
  operation: OperationObject,
): { status: number; init: { query: Record<string, unknown>; body?: Record<string, unknown>; key: string; person: boolean } }[] {
  const query = Object.fromEntries(
    operation.parameters.filter((parameter) => parameter.example !== undefined).map((parameter) => [parameter.name, parameter.example]),
  );
  const body = operation.requestBody?.content['application/json']?.example as Record<string, unknown> | undefined;
  // an id of no record: a number, or for the ids written as hex text (a device token's) as many zeros
  const unknownId = (value: unknown) => (typeof value === 'string' && /^[0-9a-f]+$/.test(value) ? '0'.repeat(value.length) : 999_999);
  const withUnknownIds = <Values extends Record<string, unknown> | undefined>(values: Values): Values =>
    values &&
    (Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, name.endsWith('_uid') || name === 'type' ? unknownId(value) : value]),
    ) as Values);
  // a signed-in person's operation takes the person's token, every other one the api key
  const person = operation.security?.some((scheme) => 'personToken' in scheme) ?? false;
  const credential = person ? accessToken : apiKey;
  const namesRecords = [...Object.keys(query), ...Object.keys(body ?? {})].some((name) => name.endsWith('_uid') || name === 'type');
  const name = path.split('/').at(-1) as string;
  return [
    { status: 401, init: { query, body, key: 'not-a-key-anybody-has', person } },
    ...(namesRecords && operation.responses[404]
      ? [
          {
            status: 404,
            init: { query: withUnknownIds(query), body: name === 'editJobCard' ? body : withUnknownIds(body), key: credential, person },
          },
        ]
      : []),
    ...(CONFLICTING[name] ? [{ status: 409, init: { query, body: CONFLICTING[name], key: credential, person } }] : []),
    ...(CROSS_CHECKED[name] ? [{ status: 400, init: { query: { ...query, ...CROSS_CHECKED[name] }, body, key: credential, person } }] : []),
  ];
}

/** Uniqueness rules met by the seeded demo's own records. */
const CONFLICTING: Record<string, Record<string, unknown>> = {
  addExpenseType: { expense_name: 'Tolls' },
  editExpenseType: { type: 3, expense_name: 'Parking' },
  addOperator: { fullname: 'Someone Else', id_number: '7001015009080', tag_id: '01A2B3C4' },
  editOperator: { operator_uid: 1, tag_id: '01D5E6F7' },
  addFuelFillSlip: { event_uid: 1, qty: '125.6' },
};

/** Cross-field rules a schema cannot state: a range that ends before it starts. */
const CROSS_CHECKED: Record<string, Record<string, string>> = {
  getTrips: { start_date: '2026-11-22', end_date: '2026-11-21' },
  getExpenseSlips: { start_date: '2026-11-22', end_date: '2026-11-21' },
  getFuelFillReport: { start_date: '2026-11-22', end_date: '2026-11-21' },
  getJobCards: { from_date: '2026-11-22', to_date: '2026-11-21' },
};

describe('documented error cases through the Prism validating proxy', () => {
  it('answer their documented status with no request or response violation', async () => {
    // Prepare
    const cases = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        errorCases(path, operation).map((errorCase) => ({ path, method, ...errorCase })),
      ),
    );
    // Act
    const answers = await Promise.all(
      cases.map(async ({ path, method, init }) => {
        const url = new URL(`${prismUrl}${path}`);
        for (const [name, value] of Object.entries(init.query)) url.searchParams.set(name, String(value));
        const res = await fetch(url, {
          method: method.toUpperCase(),
          headers: {
            ...(init.person ? { Authorization: `Bearer ${init.key}` } : { 'X-Api-Key': init.key }),
            ...(init.body && { 'Content-Type': 'application/json' }),
          },
          ...(init.body && { body: JSON.stringify(init.body) }),
        });
        return { status: res.status, violations: res.headers.get('sl-violations'), body: await res.text() };
      }),
    );
    // Assess
    expect(new Set(cases.map(({ path }) => path)).size).toBe(Object.keys(document.paths).length);
    expect(new Set(cases.map(({ status }) => status))).toEqual(new Set([400, 401, 404, 409]));
    const unexpected = cases.flatMap(({ path, status }, index) => {
      const answer = answers[index];
      return answer?.status === status && answer.violations === null
        ? []
        : [`${path} ${status}: ${answer?.status} ${answer?.body} ${answer?.violations}`];
    });
    expect(unexpected).toEqual([]);
  }, 60_000);
});

/** Values the service refuses, sent as text (a query string or a form), as forms and most clients send them. */
const OUT_OF_RANGE_TEXT: [string, string, Record<string, string>][] = [
  ['getLiveMap', 'GET', { map_api_key: 'local', width: '0' }],
  ['getLiveMap', 'GET', { map_api_key: 'local', zoom: '21' }],
  ['getPositions', 'GET', { vehicle_uid: '1', start_datetime: '2026-11-22', end_datetime: '2026-11-22', limit: '10001' }],
  ['getTrips', 'GET', { start_date: '0000-01-01', end_date: '2026-11-22' }],
  ['addUserLocation', 'POST', { description: 'Nowhere', latitude: '100', longitude: '28' }],
  ['addUserLocation', 'POST', { description: 'Nowhere', latitude: '-26', longitude: '28', radius: '0' }],
  ['addExpenseSlip', 'POST', { vehicle_uid: '1', type: '2', amount: '10', event_datetime: '2026-02-30 25:00:00' }],
];

describe('values out of range in their text form, through the Prism validating proxy', () => {
  it.each(OUT_OF_RANGE_TEXT)('%s (%s) %o is a request violation, and the service refuses it too', async (name, method, values) => {
    // Prepare
    const text = new URLSearchParams(values).toString();
    const url = method === 'GET' ? `${prismUrl}/api/${name}?${text}` : `${prismUrl}/api/${name}`;
    // Act
    const res = await fetch(url, {
      method,
      headers: { 'X-Api-Key': apiKey, ...(method === 'POST' && { 'Content-Type': 'application/x-www-form-urlencoded' }) },
      ...(method === 'POST' && { body: text }),
    });
    // Assess
    expect(res.status).toBe(400);
    expect(res.headers.get('sl-violations'), name).toMatch(/"location":\["request"/);
  });
});
