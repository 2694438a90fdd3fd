/**
 * Proves a deployed (or the local) stack works end to end with the permissions it was given: every read operation,
 * one create-read-edit-delete round trip per writable resource, a device point through each HTTP entry point and a
 * Teltonika packet. One line per check, a summary, and exit code 1 when any check failed (docs/operations.md).
 */

import { TeltonikaDevice } from '../shared/devices/teltonika/client.ts';
import { CODEC_8 } from '../shared/devices/teltonika/codec.ts';
import { encodeAvlPacket } from '../shared/devices/teltonika/encode.ts';
import { PERSON_ONLY } from '../shared/middleware/api-key-auth.ts';
import { requiredOption, runScript, UsageError } from './cli.ts';
import {
  leftoversOf,
  type Params,
  personOperations,
  type RunContext,
  readOperations,
  requestFor,
  roundTrips,
  uncoveredWrites,
} from './smoke/plan.ts';

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
}

type Outcome = 'ok' | 'FAIL' | 'skip';

const outcomes: Outcome[] = [];

function report(outcome: Outcome, check: string, detail: string): void {
  outcomes.push(outcome);
  process.stdout.write(`${outcome.padEnd(5)} ${check}: ${detail}\n`);
}

const describeAnswer = ({ status, body }: Answer): string =>
  body?.result === 'error' ? `${status} ${String(body.error_msg)}` : `${status}${body === undefined ? ' (not JSON)' : ''}`;

/** Runs one check: it passes when `expected` accepts the answer; a thrown error (no answer at all) fails it. */
async function check(name: string, call: () => Promise<Answer>, expected: (answer: Answer) => boolean): Promise<Answer | undefined> {
  const started = performance.now();
  try {
    const answer = await call();
    const took = `${Math.round(performance.now() - started)} ms`;
    report(expected(answer) ? 'ok' : 'FAIL', name, `${describeAnswer(answer)}, ${took}`);
    return expected(answer) ? answer : undefined;
  } catch (error) {
    report('FAIL', name, error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

const succeeded = ({ status, body }: Answer): boolean => status === 200 && (body === undefined || body.result === 'success');
/** The service's own 404 in its envelope: the function ran, and the record is not the key's (or no longer there). */
const notFound = ({ status, body }: Answer): boolean =>
  status === 404 && body?.result === 'error' && body.error_msg !== 'unknown operation';

const asText = (value: unknown): string => (typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The key goes in the X-Api-Key header, never in a URL that logs would keep. */
function callOperation(apiUrl: string, key: string, name: string, method: string, params: Params, query: Params = {}): Promise<Answer> {
  const url = new URL(name, apiUrl);
  const inQuery = method === 'GET' ? { ...query, ...params } : query;
  for (const [field, value] of Object.entries(inQuery)) url.searchParams.set(field, asText(value));
  const headers: Record<string, string> = { 'X-Api-Key': key };
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  return send(url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(params) } : {}) });
}

async function send(url: URL | string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(35_000) });
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  if (isJson) return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  // A PNG (getLiveMap) is read to its end and dropped: its status says enough.
  await response.arrayBuffer();
  return { status: response.status, body: undefined };
}

interface Target {
  apiUrl: string;
  /** where the HTTP entry points are checked, by stack output: the HTTP API's and/or the REST API's /devices/ */
  devicesUrls: { output: string; url: string }[];
  key: string;
  deviceToken: string | undefined;
  teltonika: { host: string; port: number } | undefined;
  imei: string | undefined;
}

async function runReads(target: Target): Promise<void> {
  for (const operation of readOperations()) {
    // An example names the demo's records: another account's key answers 404 for them, which still proves the function runs.
    await check(
      `read ${operation.name}`,
      () => callOperation(target.apiUrl, target.key, operation.name, 'GET', operation.examples.request),
      (answer) => succeeded(answer) || notFound(answer),
    );
  }
}

/** A person's operations refuse the run's api key: deployed, wired, and no key can manage keys or device tokens. */
async function runPersonOperations(target: Target): Promise<void> {
  for (const operation of personOperations()) {
    await check(
      `${operation.name} refuses an api key`,
      () => callOperation(target.apiUrl, target.key, operation.name, operation.method, operation.examples.request),
      ({ status, body }) => status === 403 && body?.error_msg === PERSON_ONLY,
    );
  }
}

async function runRoundTrips(target: Target, context: RunContext): Promise<void> {
  const call = (name: string, method: string, params: Params) => callOperation(target.apiUrl, target.key, name, method, params);
  for (const trip of roundTrips()) {
    const request = requestFor(trip.add, context);
    if (!request) {
      report('skip', `round trip ${trip.resource}`, `${trip.add.name} needs a vehicle linked to the key, and it has none`);
      continue;
    }
    const added = await check(`${trip.add.name}`, () => call(trip.add.name, 'POST', request), succeeded);
    if (!added?.body) continue;
    const ids = Object.fromEntries(trip.idFields.map((field) => [field, added.body?.[field]]));
    const get = trip.get;
    if (get) await check(`${get.name} of the new record`, () => call(get.name, 'GET', ids), succeeded);
    const edit = trip.edit;
    const change = edit ? requestFor(edit, context) : undefined;
    if (edit && change) await check(`${edit.name}`, () => call(edit.name, 'POST', { ...change, ...ids }), succeeded);
    await check(`${trip.delete.name}`, () => call(trip.delete.name, 'POST', ids), succeeded);
    if (get) await check(`${get.name} after the delete`, () => call(get.name, 'GET', ids), notFound);
    for (const leftover of leftoversOf(trip.add, added.body)) {
      const made = Object.values(leftover.params).join(' ');
      const what = `${leftover.operation} ${made}, which ${trip.add.name} made and ${trip.delete.name} keeps`;
      await check(what, () => call(leftover.operation, 'POST', leftover.params), succeeded);
    }
  }
  const { probed, left } = uncoveredWrites();
  for (const { operation, query, body } of probed) {
    await check(
      `${operation.name} of a record that is not there`,
      () => callOperation(target.apiUrl, target.key, operation.name, 'POST', body, query),
      notFound,
    );
  }
  for (const operation of left) report('skip', operation.name, 'it creates a record no operation deletes, so the smoke run leaves it out');
}

/** Where the device point is put: the vehicle's last position when it has one, so its live data does not jump. */
async function lastPosition(target: Target, imei: string): Promise<{ lat: number; lng: number }> {
  const answer = await callOperation(target.apiUrl, target.key, 'getLiveData', 'GET', { filter: imei }).catch(() => undefined);
  const vehicles = (answer?.body?.vehicles ?? []) as { latitude?: number; longitude?: number }[];
  const found = vehicles.find((vehicle) => typeof vehicle.latitude === 'number' && typeof vehicle.longitude === 'number');
  return found ? { lat: found.latitude as number, lng: found.longitude as number } : { lat: -26.2041, lng: 28.0473 };
}

async function runDevices(target: Target): Promise<void> {
  const imei = target.imei;
  if (!imei) {
    report('skip', 'device points', 'no vehicle linked to the key and no --imei');
    return;
  }
  const at = await lastPosition(target, imei);
  const now = new Date();
  if (target.deviceToken) {
    for (const { output, url } of target.devicesUrls)
      await sendDevicePoints(url, target.deviceToken, imei, at, now, target.devicesUrls.length > 1 ? ` (${output})` : '');
  } else {
    report('skip', 'device points over HTTP', 'no --device-token (npm run admin -- device-token create, docs/devices.md)');
  }
  if (target.teltonika) await sendTeltonikaPacket(target.teltonika, imei, at, now);
}

/** One point through osmand and one through traccar at a gateway's /devices/ URL. */
async function sendDevicePoints(
  devicesUrl: string,
  token: string,
  imei: string,
  at: { lat: number; lng: number },
  now: Date,
  gateway: string,
) {
  const osmand = new URL(`osmand/${encodeURIComponent(token)}`, devicesUrl);
  for (const [field, value] of Object.entries({ id: imei, lat: at.lat, lon: at.lng, timestamp: Math.floor(now.getTime() / 1000) }))
    osmand.searchParams.set(field, String(value));
  await check(`device point through osmand${gateway}`, () => send(osmand, { method: 'POST' }), succeeded);
  const position = { fixTime: now.toISOString(), latitude: at.lat, longitude: at.lng, speed: 0, course: 0, valid: true, attributes: {} };
  await check(
    `device point through traccar${gateway}`,
    () =>
      send(new URL('traccar', devicesUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ position, device: { uniqueId: imei } }),
      }),
    succeeded,
  );
}

async function sendTeltonikaPacket(endpoint: { host: string; port: number }, imei: string, at: { lat: number; lng: number }, now: Date) {
  const started = performance.now();
  try {
    const device = await TeltonikaDevice.connect(endpoint.host, endpoint.port, imei);
    try {
      const record = { timestampMs: now.getTime(), priority: 0, longitude: at.lng, latitude: at.lat, altitude: 0, angle: 0 };
      const acked = await device.send(
        encodeAvlPacket(CODEC_8, [{ ...record, satellites: 9, speedKmh: 0, eventIoId: 0, io: new Map<number, Buffer>() }]),
      );
      report(
        acked === 1 ? 'ok' : 'FAIL',
        'teltonika packet',
        `${acked} of 1 record acknowledged, ${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      device.close();
    }
  } catch (error) {
    report('FAIL', 'teltonika packet', error instanceof Error ? error.message : String(error));
  }
}

/** The key's first vehicle: a slip needs one, and the device points report for it unless --imei names another. */
async function keysFirstVehicle(target: Target): Promise<{ uid: number; imei: string } | undefined> {
  const answer = await callOperation(target.apiUrl, target.key, 'getVehicles', 'GET', {}).catch(() => undefined);
  const [first] = (answer?.body?.vehicles ?? []) as { vehicle_uid: string; imei: string }[];
  return first ? { uid: Number(first.vehicle_uid), imei: String(first.imei) } : undefined;
}

/**
 * ApiUrl (the stack output, ending in /api/) or the base URL before it; the REST API's devices' URL is its sibling,
 * the HTTP API's (DevicesHttpUrl) is checked first when given.
 */
function urlsOf(url: string, devicesUrl: string | undefined, devicesHttpUrl: string | undefined): Pick<Target, 'apiUrl' | 'devicesUrls'> {
  const base = url.replace(/\/+$/, '').replace(/\/api$/, '');
  if (!/^https?:\/\//.test(base)) throw new UsageError(`--url ${url} is not an http(s) URL`);
  const folder = (value: string) => `${value.replace(/\/+$/, '')}/`;
  return {
    apiUrl: `${base}/api/`,
    devicesUrls: [
      ...(devicesHttpUrl ? [{ output: 'DevicesHttpUrl', url: folder(devicesHttpUrl) }] : []),
      { output: 'DevicesUrl', url: devicesUrl ? folder(devicesUrl) : `${base}/devices/` },
    ],
  };
}

function hostAndPort(value: string | undefined): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const [host = '', port = '5027'] = value.split(':');
  if (!host || !/^\d+$/.test(port)) throw new UsageError(`--teltonika-host ${value} is not host or host:port`);
  return { host, port: Number(port) };
}

await runScript({
  usage: `
npm run smoke -- --url <ApiUrl> --key <api key> [--device-token T] [--imei I] [--devices-http-url <DevicesHttpUrl>]
                 [--devices-url <DevicesUrl>] [--teltonika-host host[:port]]

  Checks a deployed stack (run it after cdk deploy) or the local one, and prints one line per check and a summary;
  exits 1 when any check failed.
  --url             the ApiUrl stack output (or the base URL before /api/; locally http://127.0.0.1:3000)
  --key             an api key; its user's records are read, and the round trips create and delete their own
  --device-token    a device token of the key's user: one point through osmand and one through traccar
  --imei            the vehicle the device points report for (default: the key's first vehicle)
  --devices-http-url the DevicesHttpUrl stack output (the devices' HTTP API): its points are sent first
  --devices-url     the DevicesUrl stack output, the REST API's /devices/ (default: the --url's sibling /devices/)
  --teltonika-host  the TeltonikaHost output (port 5027 unless given): one Codec 8 packet of one record`,
  options: {
    url: 'string',
    key: 'string',
    'device-token': 'string',
    imei: 'string',
    'devices-url': 'string',
    'devices-http-url': 'string',
    'teltonika-host': 'string',
  },
  run: async ({ values }) => {
    const urls = urlsOf(
      requiredOption(values, 'url'),
      values['devices-url'] as string | undefined,
      values['devices-http-url'] as string | undefined,
    );
    const target: Target = {
      ...urls,
      key: requiredOption(values, 'key'),
      deviceToken: values['device-token'] as string | undefined,
      teltonika: hostAndPort(values['teltonika-host'] as string | undefined),
      imei: values.imei as string | undefined,
    };
    const vehicle = await keysFirstVehicle(target);
    target.imei ??= vehicle?.imei;
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    await runReads(target);
    await runPersonOperations(target);
    await runRoundTrips(target, { run, vehicleUid: vehicle?.uid });
    await runDevices(target);
    const count = (outcome: Outcome) => outcomes.filter((each) => each === outcome).length;
    process.stdout.write(`${outcomes.length} checks: ${count('ok')} passed, ${count('FAIL')} failed, ${count('skip')} skipped\n`);
    if (count('FAIL') > 0) process.exitCode = 1;
  },
});
