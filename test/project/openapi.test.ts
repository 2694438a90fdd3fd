/**
 * The OpenAPI document as the local server serves it (/api/openapi.json): its structure, exactly the
 * registry's operations, and real answers of every operation (a success and its errors, over HTTP)
 * validated against the document's schema for their status. The schemas are closed for the check
 * (no field the document does not list), though the published document leaves them open.
 */
import { createServer } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Operation, type OperationName, operations } from '../../functions/registry.ts';
import { type ApiEmulator, startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';
import type { OpenApiDocument, OperationObject } from '../../shared/openapi.ts';
import { issueApiKey, setApiKeyLocked } from '../../shared/store/api-keys.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { type ApiResponse, api, createApi } from '../support/api.ts';
import { givenLiveState, givenTrip, givenTripWithEvents, givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { givenExpenseType, givenFillSlip, givenFuelFill, givenSlip } from '../support/expense-slips-builders.ts';
import { aJobCardPayload, givenJobCard } from '../support/job-card-builders.ts';
import { givenPlacedVehicle } from '../support/live-map-builders.ts';
import { type Listening, listenOnLoopback } from '../support/loopback.ts';
import { anOperator, aTagId, givenOperator } from '../support/operators-builders.ts';
import { aPositionRecord, ingest, parked } from '../support/position-builders.ts';
import { givenRoute, rawStops, stopsText } from '../support/routes-builders.ts';
import { givenSignedInPerson } from '../support/sign-in.ts';
import { DEPOT, givenPolygonLocation, givenUserLocation } from '../support/user-locations-builders.ts';
import { closedLocalUrl, givenDeliveryAttempt, givenWebhook, PUBLIC_URL } from '../support/webhook-builders.ts';

type Params = Record<string, string | number | undefined>;

/** One call: parameters (query for GET, form for POST), or a raw JSON body with the rest in the query string. */
interface Call {
  params?: Params;
  json?: unknown;
  query?: Params;
}

const DOCUMENT_ID = 'urn:fleet-tracking:openapi';
const UNKNOWN_ID = 2_000_000_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DAY = { start_date: '2026-11-01', end_date: '2026-11-01' };

let document: OpenApiDocument;
const ajv = new Ajv2020({ allErrors: true });
formats.default(ajv);

beforeAll(async () => {
  const res = await fetch(`${inject('apiUrl')}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  document = (await res.json()) as OpenApiDocument;
  ajv.addKeyword('components');
  // OpenAPI's schema dialect: an example beside the JSON Schema keywords.
  ajv.addKeyword('example');
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: closed(document.components.schemas) } });
});

/** Every object schema that lists its properties refuses others. */
function closed(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  return 'properties' in copy && !('additionalProperties' in copy) ? { ...copy, additionalProperties: false } : copy;
}

const pathOf = (operation: Operation) => `/api/${operation.name}`;
const operationObject = (operation: Operation) => document.paths[pathOf(operation)]?.[operation.method.toLowerCase()];

function resolve(ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
}

/** Fails unless the answer's status is documented for the operation and its body fits that status's schema. */
function expectDocumented(operation: Operation, res: ApiResponse): void {
  const listed = operationObject(operation)?.responses[res.status] as { $ref?: string } | undefined;
  expect(listed, `${operation.name} answered ${res.status}, which the document does not list`).toBeDefined();
  const response = listed?.$ref ? resolve(listed.$ref) : listed;
  const [mediaType, { schema }] = Object.entries(response.content as Record<string, { schema: { $ref?: string } }>)[0] ?? [
    '',
    { schema: {} },
  ];
  expect(res.contentType.split(';')[0], `${operation.name} ${res.status}`).toBe(mediaType);
  if (mediaType !== 'application/json') {
    expect(res.raw.subarray(0, PNG_SIGNATURE.length)).toEqual(PNG_SIGNATURE);
    return;
  }
  const validate = ajv.getSchema(`${DOCUMENT_ID}${schema?.$ref}`);
  expect(validate, `${operation.name} ${res.status}: no schema ${schema?.$ref}`).toBeDefined();
  expect(validate?.(res.body), `${operation.name} ${res.status}: ${ajv.errorsText(validate?.errors)}\n${JSON.stringify(res.body)}`).toBe(
    true,
  );
}

/** The access tokens of the users a person's operation is called as, by their key: those calls carry the token, not the key. */
const personTokens = new Map<string, string>();

function send(operation: Operation, givenKey: string | undefined, call: Call, client = api): Promise<ApiResponse> {
  const token = operation.personOnly && givenKey !== undefined ? personTokens.get(givenKey) : undefined;
  if (token === undefined) return sendAs(operation, givenKey, call, client, {});
  return sendAs(operation, undefined, call, client, { Authorization: `Bearer ${token}` });
}

function sendAs(
  operation: Operation,
  key: string | undefined,
  { params = {}, json, query = {} }: Call,
  client: typeof api,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  if (Object.keys(headers).length > 0) return sendWithHeaders(operation, { params, json, query }, client, headers);
  if (operation.method === 'GET') return client.get(operation.name, { api_key: key, ...params });
  if (json === undefined) return client.post(operation.name, { api_key: key, ...params }, { query });
  return client.post(
    operation.name,
    {},
    { rawBody: JSON.stringify(json), headers: { 'Content-Type': 'application/json' }, query: { api_key: key, ...query } },
  );
}

function sendWithHeaders(
  operation: Operation,
  { params = {}, json, query = {} }: Call,
  client: typeof api,
  headers: Record<string, string>,
) {
  if (operation.method === 'GET') return client.get(operation.name, params, { headers });
  if (json === undefined) return client.post(operation.name, params, { query, headers });
  return client.post(
    operation.name,
    {},
    { rawBody: JSON.stringify(json), headers: { 'Content-Type': 'application/json', ...headers }, query },
  );
}

/** The registry's entries as one type (the registry's own type is a union of literals). */
const registry: readonly Operation[] = operations;
const named = (operation: Operation) => operation.name as OperationName;
const byName = (name: OperationName): Operation => registry.find((operation) => operation.name === name) as Operation;

/** For every operation: the data a success needs, made for the user, and the call that succeeds. */
const successes: Record<OperationName, (user: TestUser) => Promise<Call>> = {
  getVehicles: async (user) => {
    await givenVehicle(user, { regNum: null, startHours: null, startHoursDate: null, licenceExpireDate: null, fuelCapacity: null });
    await givenLiveState(await givenVehicle(user));
    return {};
  },
  getLiveData: async (user) => {
    await givenVehicle(user);
    await givenLiveState(await givenVehicle(user));
    return {};
  },
  getLiveMap: async (user) => {
    await givenPlacedVehicle(user, DEPOT);
    return { params: { map_api_key: 'test-map-key' } };
  },
  getTrips: async (user) => {
    const vehicle = await givenVehicle(user);
    await givenTrip(vehicle);
    await givenTrip(vehicle, {
      startTime: '2026-11-01T08:00:00.000Z',
      stopTime: '2026-11-01T08:20:00.000Z',
      fuelStart: null,
      fuelEnd: null,
      driverName: null,
      driverTagId: null,
    });
    await givenVehicle(user);
    return { params: DAY };
  },
  getEvents: async (user) => {
    await givenTripWithEvents(await givenVehicle(user));
    return {};
  },
  getPositions: async (user) => {
    const vehicle = await givenVehicle(user);
    await ingest([
      ...parked(vehicle.imei, '2026-11-01T06:00:00.000Z', 3, DEPOT),
      aPositionRecord(vehicle.imei, '2026-11-01T06:05:00.000Z', {
        speed: null,
        heading: null,
        ignition: null,
        fuel_raw: null,
        supp_volt: null,
        int_batt_volt: null,
        int_temp: null,
      }),
    ]);
    return {
      params: { vehicle_uid: vehicle.vehicleUid, start_datetime: '2026-11-01 00:00:00', end_datetime: '2026-11-01 23:59:59', limit: 3 },
    };
  },
  getExpenseTypes: async (user) => {
    await givenExpenseType(user);
    return {};
  },
  addExpenseType: async () => ({ params: { expense_name: 'Tolls' } }),
  editExpenseType: async (user) => ({ params: { type: await givenExpenseType(user), expense_name: 'Parking' } }),
  deleteExpenseType: async (user) => ({ params: { type: await givenExpenseType(user) } }),
  addExpenseSlip: async (user) => ({
    params: {
      vehicle_uid: (await givenVehicle(user)).vehicleUid,
      type: 2,
      amount: '850.40',
      event_datetime: '2026-11-01 07:30:00',
      qty: '42.5',
    },
  }),
  getExpenseSlip: async (user) => ({ params: { slip_uid: (await givenSlip(user, await givenVehicle(user))).slipUid } }),
  getExpenseSlips: async (user) => {
    const vehicle = await givenVehicle(user);
    await givenSlip(user, vehicle);
    await givenSlip(user, vehicle, { type: await givenExpenseType(user), slipNumber: '', comment: '' });
    return { params: { vehicle_uid: vehicle.vehicleUid, ...DAY } };
  },
  editExpenseSlip: async (user) => ({ params: { slip_uid: (await givenSlip(user, await givenVehicle(user))).slipUid, amount: '99.99' } }),
  deleteExpenseSlip: async (user) => ({ params: { slip_uid: (await givenSlip(user, await givenVehicle(user))).slipUid } }),
  getOperators: async (user) => {
    await givenOperator(user);
    await givenOperator(user, { active_flag: 0, email_address: undefined });
    return {};
  },
  getOperator: async (user) => ({ params: { operator_uid: (await givenOperator(user)).operatorUid } }),
  addOperator: async () => ({ params: anOperator() }),
  editOperator: async (user) => ({ params: { operator_uid: (await givenOperator(user)).operatorUid, active_flag: 0 } }),
  deleteOperator: async (user) => ({ params: { operator_uid: (await givenOperator(user)).operatorUid } }),
  getUserLocations: async (user) => {
    await givenUserLocation(user);
    await givenPolygonLocation(user, { no_go: 1 });
    return {};
  },
  getUserLocation: async (user) => ({ params: { user_location_uid: (await givenPolygonLocation(user)).userLocationUid } }),
  addUserLocation: async () => ({ params: { description: 'Depot', latitude: DEPOT.lat, longitude: DEPOT.lng } }),
  editUserLocation: async (user) => ({ params: { user_location_uid: (await givenUserLocation(user)).userLocationUid, radius: 2.5 } }),
  deleteUserLocation: async (user) => ({ params: { user_location_uid: (await givenUserLocation(user)).userLocationUid } }),
  getFuelFillReport: async (user) => {
    const vehicle = await givenVehicle(user);
    await givenFillSlip(vehicle);
    await givenFuelFill(vehicle, {
      at: '2026-11-01T15:00:00.000Z',
      operatorUid: 7,
      operatorName: 'Thabo Mokoena',
      tripUid: 12,
      distanceKm: 310.4,
      durationS: 18_000,
      fuelUsed: 41.2,
    });
    return { params: { vehicle_uid: vehicle.vehicleUid, ...DAY } };
  },
  addFuelFillSlip: async (user) => ({ params: { event_uid: await givenFuelFill(await givenVehicle(user)), qty: '60', amount: '1320.00' } }),
  getJobCards: async (user) => {
    await givenJobCard(user);
    await givenJobCard(user, { Instructions: 'no reference' });
    return {};
  },
  getJobCard: async (user) => ({ params: { job_card_uid: (await givenJobCard(user)).jobCardUid } }),
  addJobCard: async () => ({ json: aJobCardPayload() }),
  editJobCard: async (user) => ({
    json: aJobCardPayload({ ReferenceNumber: 'REF-78' }),
    query: { job_card_uid: (await givenJobCard(user)).jobCardUid },
  }),
  getJobCardHistory: async (user) => ({ params: { job_card_uid: (await givenJobCard(user)).jobCardUid } }),
  addRoute: async (user) => ({
    params: { route_name: 'Morning run', stops: stopsText(rawStops(3)), vehicle_uid: (await givenVehicle(user)).vehicleUid },
  }),
  getRoutes: async (user) => {
    await givenRoute(user);
    await givenRoute(user, { vehicle_uid: (await givenVehicle(user)).vehicleUid });
    return {};
  },
  getRoute: async (user) => ({ params: { route_uid: (await givenRoute(user)).route_uid } }),
  deleteRoute: async (user) => ({ params: { route_uid: (await givenRoute(user)).route_uid } }),
  addWebhook: async () => ({ params: { url: PUBLIC_URL, event_types: 'trip.started', description: 'ERP' } }),
  getWebhooks: async (user) => {
    await givenWebhook(user);
    return {};
  },
  getWebhook: async (user) => ({ params: { webhook_uid: (await givenWebhook(user)).webhookUid } }),
  editWebhook: async (user) => ({ params: { webhook_uid: (await givenWebhook(user)).webhookUid, enabled: 0 } }),
  rotateWebhookSecret: async (user) => ({ params: { webhook_uid: (await givenWebhook(user)).webhookUid } }),
  // nothing listens at the URL: the answer carries an error and no status, both of the document's types
  testWebhook: async (user) => ({ params: { webhook_uid: (await givenWebhook(user, { url: await closedLocalUrl() })).webhookUid } }),
  getWebhookDeliveries: async (user) => {
    const { webhookUid } = await givenWebhook(user);
    await givenDeliveryAttempt(user, webhookUid);
    await givenDeliveryAttempt(user, webhookUid, { statusCode: null, error: 'connection refused', state: 'failed', nextAttemptAt: null });
    return { params: { webhook_uid: webhookUid } };
  },
  // the run's shared server queues nothing (its stack delivers nothing): a user without events, so none is queued
  redeliverEvents: async (user) => ({ params: { webhook_uid: (await givenWebhook(user)).webhookUid, since: '2026-11-01 00:00:00' } }),
  deleteWebhook: async (user) => ({ params: { webhook_uid: (await givenWebhook(user)).webhookUid } }),
  getAccount: async () => ({}),
  getApiKeys: async () => ({}),
  addApiKey: async () => ({ params: { description: 'dispatch system' } }),
  lockApiKey: async (user) => ({ params: { api_key_uid: (await issueApiKey(user.userUid)).apiKeyUid } }),
  unlockApiKey: async (user) => ({ params: { api_key_uid: (await issueApiKey(user.userUid)).apiKeyUid } }),
  deleteApiKey: async (user) => ({ params: { api_key_uid: (await issueApiKey(user.userUid)).apiKeyUid } }),
  getDeviceTokens: async (user) => {
    await createDeviceToken(user.userUid);
    return {};
  },
  addDeviceToken: async (user) => ({ params: { vehicle_uid: (await givenVehicle(user)).vehicleUid } }),
  deleteDeviceToken: async (user) => ({ params: { device_token_uid: (await createDeviceToken(user.userUid)).tokenId } }),
};

/** Errors only some operations can answer, made to happen for a user of their own. */
const particularErrors: Partial<Record<OperationName, (user: TestUser) => Promise<Call[]>>> = {
  getLiveMap: async () => [{ params: { map_api_key: 'test-map-key' } }],
  getJobCards: async () => [{ params: { from_date: 'yesterday' } }],
  addExpenseType: async (user) => {
    await givenExpenseType(user, 'Fines');
    return [{ params: { expense_name: 'fines' } }];
  },
  editExpenseType: async (user) => {
    await givenExpenseType(user, 'Fines');
    return [{ params: { type: await givenExpenseType(user, 'Tolls'), expense_name: 'Fines' } }];
  },
  addOperator: async (user) => [{ params: anOperator({ tag_id: (await givenOperator(user)).tagId }) }],
  editOperator: async (user) => {
    const taken = await givenOperator(user);
    return [{ params: { operator_uid: (await givenOperator(user, { tag_id: aTagId() })).operatorUid, tag_id: taken.tagId } }];
  },
  addFuelFillSlip: async (user) => {
    const eventUid = await givenFuelFill(await givenVehicle(user));
    await send(byName('addFuelFillSlip'), user.key, { params: { event_uid: eventUid, qty: '60' } });
    return [{ params: { event_uid: eventUid, qty: '61' } }];
  },
};

const isId = (name: string): boolean => name.endsWith('_uid') || name === 'type';

/** The success call with every id of the user's records replaced by one nobody has; none when it names no record. */
function withUnknownIds({ params = {}, query = {}, json }: Call): Call | undefined {
  if (![...Object.keys(params), ...Object.keys(query)].some(isId)) return undefined;
  const unknown = (values: Params) =>
    Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isId(name) ? UNKNOWN_ID : value]));
  return { params: unknown(params), query: unknown(query), json };
}

/** What every operation answers, whatever it does: a success, and the errors any request can meet. */
async function realAnswers(operation: Operation): Promise<ApiResponse[]> {
  const [user, locked, other] = await Promise.all([givenUser(), givenUser(), givenUser()]);
  if (operation.personOnly) {
    for (const person of [user, other]) personTokens.set(person.key, (await givenSignedInPerson(inject('apiUrl'), person)).accessToken);
  }
  const [success, particular] = await Promise.all([
    successes[named(operation)](user),
    particularErrors[named(operation)]?.(other) ?? ([] as Call[]),
    setApiKeyLocked(locked.key, true),
  ]);
  const unknownIds = withUnknownIds(success);
  // In order: the success first, as the unknown ids and the locked key must not race the data it needs.
  const succeeded = await send(operation, user.key, success);
  return [
    succeeded,
    ...(await Promise.all([
      // 400 for a GET without its parameters (a success for those that need none), and for a POST body that is no object
      operation.method === 'GET' ? send(operation, user.key, {}) : send(operation, user.key, { json: [1] }),
      send(operation, undefined, success),
      send(operation, locked.key, success),
      ...(unknownIds ? [send(operation, user.key, unknownIds)] : []),
      api.request(operation.method === 'GET' ? 'POST' : 'GET', operation.name),
      ...(operation.method === 'POST' ? [send(operation, user.key, { params: { filler: 'x'.repeat(300 * 1024) } })] : []),
      ...particular.map((call) => send(operation, other.key, call)),
    ])),
  ];
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 for the server that serves it, with the API key as header or query parameter', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: '1', description: expect.any(String) });
    expect(document.servers).toEqual([{ url: inject('apiUrl') }]);
    expect(document.components.securitySchemes).toEqual({
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      apiKeyQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'api_key' }),
      personToken: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(document.security).toEqual([{ apiKeyHeader: [] }, { apiKeyQuery: [] }, { personToken: [] }]);
  });

  it('names its licence and contact, and types the map as binary PNG', () => {
    expect(document.info.license).toMatchObject({ name: expect.any(String), identifier: expect.any(String) });
    expect(document.info.contact).toMatchObject({ name: expect.any(String) });
    const map = operationObject(byName('getLiveMap'))?.responses[200] as { content: Record<string, { schema: object }> };
    expect(map.content['image/png']?.schema).toMatchObject({ type: 'string', format: 'binary' });
  });

  it("lists exactly the registry's operations, each at /api/<operation> with its method and summary", () => {
    expect(Object.keys(document.paths).sort()).toEqual(operations.map(pathOf).sort());
    for (const operation of operations) {
      expect(Object.keys(document.paths[pathOf(operation)] ?? {}), operation.name).toEqual([operation.method.toLowerCase()]);
      expect(operationObject(operation)).toMatchObject({ operationId: operation.name, summary: operation.summary });
    }
  });

  it('resolves every $ref it holds', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) expect(resolve(JSON.parse(`{${ref}}`).$ref), ref).toBeDefined();
  });

  it('has component schemas that compile as JSON Schema 2020-12', () => {
    for (const name of Object.keys(document.components.schemas)) {
      expect(ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`), name).toBeTypeOf('function');
    }
  });

  it('documents every parameter with a schema that compiles, and POST bodies as a form and as JSON', () => {
    for (const operation of operations) {
      const described = operationObject(operation);
      for (const parameter of described?.parameters ?? []) {
        expect(parameter).toMatchObject({ in: parameter.name === 'Idempotency-Key' ? 'header' : 'query', required: expect.any(Boolean) });
        expect(() => ajv.compile(parameter.schema), `${operation.name} ${parameter.name}`).not.toThrow();
      }
      if (operation.method === 'POST') {
        expect(Object.keys(described?.requestBody?.content ?? {}).sort(), operation.name).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
        ]);
      } else {
        expect(described?.requestBody, operation.name).toBeUndefined();
      }
    }
  });

  it('documents the optional Idempotency-Key header on every operation that declares it (the creates), and only there', () => {
    // A person's creates (addApiKey, addDeviceToken) answer a secret kept only as its hash: no replay could answer it again.
    expect(registry.filter((operation) => operation.idempotencyKey).map(({ name }) => name)).toEqual(
      registry.filter(({ name, personOnly }) => name.startsWith('add') && !personOnly).map(({ name }) => name),
    );
    for (const operation of registry) {
      const header = operationObject(operation)?.parameters.find((parameter) => parameter.name === 'Idempotency-Key');
      if (operation.idempotencyKey) expect(header, operation.name).toMatchObject({ in: 'header', required: false });
      else expect(header, operation.name).toBeUndefined();
    }
  });

  it("tags every operation with its area, one tag per area in the registry's order", () => {
    expect(document.tags.map(({ name }) => name)).toEqual([...new Set(registry.map((operation) => operation.area))]);
    for (const operation of registry) expect(operationObject(operation)?.tags, operation.name).toEqual([operation.area]);
  });

  it('gives every operation a description, a request example and a JSON success example', () => {
    for (const operation of registry) {
      const described = operationObject(operation) as OperationObject;
      expect(described.description.length, operation.name).toBeGreaterThan(
        `${operation.method} /api/${operation.name}. Changes data.`.length + 40,
      );
      const success = described.responses[200] as { content: Record<string, { example?: unknown }> };
      const [[mediaType, content]] = Object.entries(success.content) as [[string, { example?: unknown }]];
      if (mediaType === 'application/json')
        expect(content.example, `${operation.name}: no success example`).toMatchObject({ result: 'success' });
      else expect(mediaType, operation.name).toBe('image/png');
      const request =
        operation.method === 'GET'
          ? described.parameters.map((parameter) => parameter.example)
          : [described.requestBody?.content['application/json']?.example];
      const declared = operation.method === 'GET' ? described.parameters.length : 1;
      expect(
        request.filter((example) => example !== undefined),
        `${operation.name}: no request example`,
      ).toHaveLength(declared);
    }
  });

  it('describes every parameter in words of its own, not with its error messages', () => {
    for (const operation of registry) {
      const described = operationObject(operation) as OperationObject;
      const body =
        described.requestBody &&
        resolve((described.requestBody.content['application/x-www-form-urlencoded']!.schema as { $ref: string }).$ref);
      const parameters = [
        ...described.parameters,
        ...Object.entries(body?.properties ?? {}).map(([name, schema]) => ({ name, ...(schema as object) })),
      ] as { name: string; description?: string }[];
      for (const { name, description } of parameters) {
        expect(description, `${operation.name} ${name}`).toMatch(/\w{3,}/);
        expect(description, `${operation.name} ${name}`).not.toMatch(/is required|must be|is too long|is invalid/);
      }
    }
  });

  it('keeps the API key out of request bodies and describes where else it may come, header first', () => {
    for (const operation of registry.filter(({ method }) => method === 'POST')) {
      const { requestBody } = operationObject(operation) as OperationObject;
      const form = resolve((requestBody!.content['application/x-www-form-urlencoded']!.schema as { $ref: string }).$ref);
      expect(Object.keys(form.properties), operation.name).not.toContain('api_key');
    }
    expect((document.components.securitySchemes.apiKeyHeader as { description: string }).description).toMatch(
      /X-Api-Key header, in the body .* or in the api_key query parameter, looked for in that order/,
    );
  });

  it('lists the error statuses every operation shares (503 included), 413 for bodies and 502 for provider calls', () => {
    for (const operation of registry) {
      const statuses = Object.keys(operationObject(operation)?.responses ?? {});
      expect(statuses, operation.name).toEqual(expect.arrayContaining(['200', '400', '401', '403', '405', '429', '500', '503']));
      expect(statuses.includes('413'), operation.name).toBe(operation.method === 'POST');
      expect(statuses.includes('502'), operation.name).toBe(operation.provider !== undefined);
    }
  });
});

/** The document's own schemas, open as published (a record sent back carries fields an edit ignores). */
const published = new Ajv2020({ allErrors: true, strict: false });
formats.default(published);
const isValidInput = (component: string, value: unknown): boolean => {
  const validate = published.getSchema(`${DOCUMENT_ID}-published#/components/schemas/${component}`);
  if (!validate) throw new Error(`no schema ${component}`);
  return validate(value) as boolean;
};

describe('inputs typed as the service reads them', () => {
  beforeAll(() => {
    published.addSchema({ $id: `${DOCUMENT_ID}-published`, components: { schemas: document.components.schemas } });
  });

  it('takes 0/1 flags as integers or text, and nothing else', () => {
    for (const no_go of [0, 1, '0', '1']) expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, no_go }), String(no_go)).toBe(true);
    for (const no_go of [2, 'yes', true, '01'])
      expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, no_go }), String(no_go)).toBe(false);
  });

  it('takes numbers as a JSON number or decimal text, within their limits', () => {
    for (const radius of [2.5, '2.5', 20_000])
      expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, radius }), String(radius)).toBe(true);
    for (const radius of [0, -1, '1e3', 20_001])
      expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, radius }), String(radius)).toBe(false);
    for (const latitude of [-26.2, '-26.2'])
      expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, latitude }), String(latitude)).toBe(true);
    expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, latitude: 91 })).toBe(false);
  });

  it('bounds the text form of a number as the number itself, so tools refuse out-of-range text too', () => {
    for (const [change, valid] of [
      [{ latitude: '90' }, true],
      [{ latitude: '-89.9999999' }, true],
      [{ latitude: '90.0001' }, false],
      [{ latitude: '100' }, false],
      [{ longitude: '-180' }, true],
      [{ longitude: '181' }, false],
      [{ radius: '0' }, false],
      [{ radius: '0.000' }, false],
      [{ radius: '0.001' }, true],
      [{ radius: '20000' }, true],
      [{ radius: '20000.01' }, false],
      [{ speed: '1000' }, true],
      [{ speed: '1000.5' }, false],
    ] as const) {
      expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, ...change }), JSON.stringify(change)).toBe(valid);
    }
    const liveMap = operationObject(byName('getLiveMap'))?.parameters ?? [];
    const accepts = (name: string, value: string) =>
      published.compile(liveMap.find((parameter) => parameter.name === name)?.schema as object)(value) as boolean;
    expect([accepts('width', '0'), accepts('width', '1'), accepts('width', '640'), accepts('width', '641')]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect([accepts('zoom', '20'), accepts('zoom', '21')]).toEqual([true, false]);
  });

  it('states decimals with their places and digits, dates and datetimes with their patterns', () => {
    const slip = { vehicle_uid: 1, type: 2, amount: '850.40', event_datetime: '2026-11-01 07:30:00' };
    for (const change of [
      { amount: 850.4 },
      { amount: '0850.40' },
      { qty: '42.125' },
      { qty: 0 },
      { event_datetime: '2026-11-01' },
      { vehicle_uid: '1' },
    ]) {
      expect(isValidInput('AddExpenseSlipInput', { ...slip, ...change }), JSON.stringify(change)).toBe(true);
    }
    for (const change of [
      { event_datetime: '0000-01-01' },
      { event_datetime: '2026-13-01 07:30:00' },
      { event_datetime: '2026-11-01 24:00:00' },
      { amount: '850.401' },
      { amount: '0' },
      { amount: 0 },
      { amount: '1234567890123' },
      { qty: '1.1234' },
      { event_datetime: '2026-11-01T07:30:00' },
      { vehicle_uid: 'one' },
    ]) {
      expect(isValidInput('AddExpenseSlipInput', { ...slip, ...change }), JSON.stringify(change)).toBe(false);
    }
    const description = (name: string) =>
      (operationObject(byName('getTrips'))?.parameters.find((parameter) => parameter.name === name)?.schema ?? {}) as object;
    expect(description('start_date')).toMatchObject({ type: 'string', format: 'date', pattern: expect.any(String) });
  });

  it('types stops and points as arrays of their objects, or the JSON text of one', () => {
    const route = { route_name: 'Morning run', stops: [{ user_location_uid: 1 }, { lat: -26.1, lng: '28.05', description: 'Client' }] };
    expect(isValidInput('AddRouteInput', route)).toBe(true);
    expect(isValidInput('AddRouteInput', { ...route, stops: JSON.stringify(route.stops) })).toBe(true);
    expect(isValidInput('AddRouteInput', { ...route, stops: [{ user_location_uid: 1 }] })).toBe(false);
    expect(isValidInput('AddRouteInput', { ...route, stops: [{ user_location_uid: 1 }, { lat: 95, lng: 28 }] })).toBe(false);
    const square = [
      { lat: -26, lng: 28 },
      { lat: -26, lng: 28.01 },
      { lat: -25.99, lng: 28.01 },
    ];
    expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, location_type: 'polygon', points: square })).toBe(true);
    expect(isValidInput('AddUserLocationInput', { ...DEPOT_INPUT, location_type: 'polygon', points: square.slice(0, 2) })).toBe(false);
  });

  it('requires payload in the form of addJobCard, and job_card_uid of editJobCard in the query string or the form', () => {
    expect(isValidInput('AddJobCardInput', {})).toBe(false);
    expect(isValidInput('AddJobCardInput', { payload: '{"ReferenceNumber":"REF-1"}' })).toBe(true);
    expect(operationObject(byName('editJobCard'))?.parameters).toEqual([
      expect.objectContaining({ name: 'job_card_uid', required: false }),
    ]);
    expect(isValidInput('EditJobCardInput', { payload: '{}', job_card_uid: '7' })).toBe(true);
  });

  it("says editExpenseSlip takes only the slip's own type", () => {
    const properties = (resolve('#/components/schemas/EditExpenseSlipInput') as { properties: Record<string, { description: string }> })
      .properties;
    expect(properties.type?.description).toMatch(/slip's own type.*any other type is refused/);
  });
});

describe('a record read back and sent to its edit operation', () => {
  it.each([
    [
      'an operator',
      'editOperator',
      async (user: TestUser) => {
        const { operatorUid } = await givenOperator(user);
        return (await api.get('getOperator', { api_key: user.key, operator_uid: operatorUid })).body.operator as Record<string, unknown>;
      },
    ],
    [
      'a polygon location',
      'editUserLocation',
      async (user: TestUser) => {
        const { userLocationUid } = await givenPolygonLocation(user, { no_go: 1 });
        return (await api.get('getUserLocation', { api_key: user.key, user_location_uid: userLocationUid })).body.location as Record<
          string,
          unknown
        >;
      },
    ],
    [
      'a point location',
      'editUserLocation',
      async (user: TestUser) => {
        const { userLocationUid } = await givenUserLocation(user);
        return (await api.get('getUserLocation', { api_key: user.key, user_location_uid: userLocationUid })).body.location as Record<
          string,
          unknown
        >;
      },
    ],
    [
      'a slip',
      'editExpenseSlip',
      async (user: TestUser) => {
        const { slipUid } = await givenSlip(user, await givenVehicle(user));
        return (await api.get('getExpenseSlip', { api_key: user.key, slip_uid: slipUid })).body.slip as Record<string, unknown>;
      },
    ],
  ] as const)('is valid by the document and accepted by the service: %s', async (_record, edit, readBack) => {
    // Prepare
    const user = await givenUser();
    const record = await readBack(user);
    // Act
    const res = await api.post(
      edit,
      {},
      { rawBody: JSON.stringify(record), headers: { 'Content-Type': 'application/json', 'X-Api-Key': user.key } },
    );
    // Assess
    expect(isValidInput(`${pascal(edit)}Input`, record)).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const DEPOT_INPUT = { description: 'Depot', latitude: -26.2, longitude: 28.05 };

describe.each(registry.map((operation) => [operation.name, operation] as const))('%s as the document says', (_name, operation) => {
  it('answers a real success and its errors with documented statuses and bodies', async () => {
    // Prepare and act
    const answers = await realAnswers(operation);
    // Assess
    expect(answers[0]?.status, JSON.stringify(answers[0]?.body)).toBe(200);
    for (const res of answers) expectDocumented(operation, res);
  });
});

describe('operations calling a provider, when it fails', () => {
  let provider: Listening;
  let emulator: ApiEmulator;
  const configured = ['LIVE_MAP_PROVIDER', 'GOOGLE_STATIC_MAPS_URL', 'DIRECTIONS_PROVIDER', 'OSRM_URL'];

  beforeAll(async () => {
    provider = await listenOnLoopback(
      createServer((_req, res) => void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('unavailable')),
    );
    const url = provider.origin;
    Object.assign(process.env, {
      LIVE_MAP_PROVIDER: 'google',
      GOOGLE_STATIC_MAPS_URL: `${url}/staticmap`,
      DIRECTIONS_PROVIDER: 'osrm',
      OSRM_URL: url,
    });
    emulator = await startApiEmulator({ port: await freePort() });
  });

  afterAll(async () => {
    for (const name of configured) delete process.env[name];
    await emulator.close();
    await provider.close();
  });

  it.each(registry.filter((operation) => operation.provider).map((operation) => [operation.name, operation] as const))(
    '%s answers the documented 502',
    async (_name, operation) => {
      // Prepare
      const user = await givenUser();
      const call = await successes[named(operation)](user);
      // Act
      const res = await send(
        operation,
        user.key,
        call,
        createApi(() => emulator.url),
      );
      // Assess
      expect(res.status).toBe(502);
      expectDocumented(operation, res);
    },
  );
});
