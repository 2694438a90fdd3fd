/**
 * Faults DynamoDB Local, s3rver and a healthy provider cannot produce on demand. aws-sdk-client-mock fails
 * chosen commands while every other command still reaches the local stack (sinon's callThrough), so what a
 * failed request left behind is read back for real, through the shared emulator and the user's own key.
 *
 * Covered elsewhere and not repeated here: a failing key lookup (500, logged, no stack trace) and a throttled
 * Query (429) in test/middleware/error-mapper.unit.test.ts; TransactionConflict retries of operator writes in
 * test/store/operator-transactions.unit.test.ts; the pipeline's failed writes and archive in
 * test/pipeline/process-positions-faults.test.ts; provider HTTP errors, timeouts and bad answers in
 * test/operations/getLiveMap.test.ts and addRoute.test.ts (OSRM on a closed port included).
 */
import { createServer } from 'node:http';
import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findOperation } from '../../functions/registry.ts';
import { freePort } from '../../local/ports.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle, type TestUser } from '../support/builders.ts';
import { cancelledTransaction } from '../support/dynamodb-faults.ts';
import { aContext, anEvent } from '../support/events.ts';
import { givenExpenseType, givenFuelFill } from '../support/expense-slips-builders.ts';
import { aJobCardPayload } from '../support/job-card-builders.ts';
import { type FakeStaticMaps, givenPlacedVehicle, startFakeStaticMaps } from '../support/live-map-builders.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { anOperator, aTagId, givenOperator } from '../support/operators-builders.ts';
import { rawStops, scheduledRoutes, somewhere, stopsText } from '../support/routes-builders.ts';
import { givenUserLocation } from '../support/user-locations-builders.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);

const PROVIDER_ENV = [
  'LIVE_MAP_PROVIDER',
  'GOOGLE_STATIC_MAPS_URL',
  'DIRECTIONS_PROVIDER',
  'OSRM_URL',
  'GOOGLE_DIRECTIONS_URL',
  'GOOGLE_DIRECTIONS_API_KEY',
];
const savedEnv = Object.fromEntries(PROVIDER_ENV.map((name) => [name, process.env[name]]));

beforeEach(() => {
  dynamo.reset();
  dynamo.send.callThrough();
  s3.reset();
  s3.send.callThrough();
});

afterEach(() => {
  for (const name of PROVIDER_ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

afterAll(() => {
  dynamo.restore();
  s3.restore();
});

type Params = Record<string, string | number>;

/** Runs the operation's real handler on an API Gateway event, as the deployed function would. */
async function invoke(operation: string, user: TestUser, params: Params): Promise<APIGatewayProxyResult> {
  const { handler } = (await import(`../../functions/${operation}/handler.ts`)) as {
    handler: (event: APIGatewayProxyEvent, context: ReturnType<typeof aContext>) => Promise<APIGatewayProxyResult>;
  };
  const post = findOperation(operation)?.method === 'POST';
  const query = new URLSearchParams({ api_key: user.key, ...(post ? {} : params) } as Record<string, string>).toString();
  const event = post
    ? anEvent({
        operation,
        method: 'POST',
        query,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params as Record<string, string>).toString(),
      })
    : anEvent({ operation, method: 'GET', query });
  return handler(event, aContext(operation));
}

/** The response is exactly the error envelope: no stack trace, no detail of the fault. */
function expectEnvelope(result: APIGatewayProxyResult, status: number, message: string): void {
  expect(result.statusCode).toBe(status);
  expect(result.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8' });
  expect(JSON.parse(result.body)).toEqual({ version: '1', result: 'error', error_msg: message });
}

const THROTTLED = 'request throttled, retry later';
const INTERNAL = 'internal error';

/**
 * Every write command the request sent, apart from taking ids from the counters (an unused id is only a gap), the
 * token its api key's rate limit took and the key's last use (at most once an hour, docs/console.md).
 */
function writesSent(): string[] {
  const writes = [PutCommand, UpdateCommand, DeleteCommand, BatchWriteCommand, TransactWriteCommand];
  return dynamo
    .calls()
    .map((call) => call.args[0] as object)
    .filter((command) => writes.some((type) => command instanceof type))
    .filter((command) => !(command instanceof UpdateCommand && /^(COUNTER|RATE|APIKEY)#/.test(String(command.input.Key?.pk))))
    .map((command) => command.constructor.name);
}

const read = async (user: TestUser, operation: string, params: Params = {}) =>
  (await api.get(operation, { api_key: user.key, ...params })).body;

// ---- DynamoDB faults on each store's representative writes ------------------------------------

type WriteCommand = typeof PutCommand | typeof TransactWriteCommand;

interface WriteFixture {
  operation: string;
  /** the command that carries the whole write: one TransactWriteCommand for every multi-item write */
  write: WriteCommand;
  /** the items that one command writes or checks together */
  items: number;
  /** the request's parameters, with whatever it needs made beforehand */
  given: (user: TestUser) => Promise<Params>;
  /** what the user sees of the records the request would have written or changed */
  state: (user: TestUser, params: Params) => Promise<unknown>;
}

const NOVEMBER = { start_date: '2026-11-01', end_date: '2026-11-30' };

const writeFixtures: WriteFixture[] = [
  {
    operation: 'addExpenseType',
    write: TransactWriteCommand,
    items: 2,
    given: async () => ({ expense_name: 'Tolls' }),
    state: (user) => read(user, 'getExpenseTypes'),
  },
  {
    operation: 'addOperator',
    write: TransactWriteCommand,
    items: 2,
    given: async () => anOperator() as Params,
    state: (user) => read(user, 'getOperators'),
  },
  {
    operation: 'editOperator',
    write: TransactWriteCommand,
    items: 3,
    given: async (user) => ({ operator_uid: (await givenOperator(user)).operatorUid, fullname: 'Lerato Dlamini', tag_id: aTagId() }),
    state: (user, params) => read(user, 'getOperator', { operator_uid: params.operator_uid as number }),
  },
  {
    operation: 'addExpenseSlip',
    write: PutCommand,
    items: 1,
    given: async (user) => ({
      vehicle_uid: (await givenVehicle(user)).vehicleUid,
      type: await givenExpenseType(user, 'Tolls'),
      amount: '35.50',
      event_datetime: '2026-11-02 08:00:00',
    }),
    state: (user, params) => read(user, 'getExpenseSlips', { vehicle_uid: params.vehicle_uid as number, ...NOVEMBER }),
  },
  {
    operation: 'addJobCard',
    write: TransactWriteCommand,
    items: 3,
    given: async () => ({ payload: JSON.stringify(aJobCardPayload()) }),
    state: (user) => read(user, 'getJobCards'),
  },
  {
    operation: 'addRoute',
    write: TransactWriteCommand,
    items: 3,
    given: async (user) => {
      const stops = await Promise.all(rawStops(3).map((spot) => givenUserLocation(user, { latitude: spot.lat, longitude: spot.lng })));
      return {
        route_name: 'Morning run',
        stops: stopsText(stops.map(({ userLocationUid }) => ({ user_location_uid: userLocationUid }))),
        vehicle_uid: (await givenVehicle(user)).vehicleUid,
      };
    },
    state: async (user, params) => [await read(user, 'getRoutes'), await scheduledRoutes(params.vehicle_uid as number)],
  },
  {
    operation: 'addUserLocation',
    // the location and the user's locations version (shared/pipeline/zone-cache.ts)
    write: TransactWriteCommand,
    items: 2,
    given: async () => ({ description: 'Depot', latitude: -26.2041, longitude: 28.0473 }),
    state: (user) => read(user, 'getUserLocations'),
  },
  {
    operation: 'addFuelFillSlip',
    write: TransactWriteCommand,
    items: 2,
    given: async (user) => {
      const vehicle = await givenVehicle(user);
      // vehicle_uid is no parameter of addFuelFillSlip (validation drops it); the state reads the report by it.
      return { event_uid: await givenFuelFill(vehicle), qty: '60', vehicle_uid: vehicle.vehicleUid };
    },
    state: (user, params) => read(user, 'getFuelFillReport', { vehicle_uid: params.vehicle_uid as number, ...NOVEMBER }),
  },
];

interface Fault {
  name: string;
  error: () => Error;
  status: number;
  message: string;
  /** only a transaction can be cancelled */
  transactionsOnly?: boolean;
}

const faults: Fault[] = [
  {
    name: 'DynamoDB throttling the write',
    error: () =>
      new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded',
        $metadata: {},
      }),
    status: 429,
    message: THROTTLED,
  },
  {
    name: 'a transaction cancelled by throttling',
    error: () => cancelledTransaction('None', 'ThrottlingError'),
    status: 429,
    message: THROTTLED,
    transactionsOnly: true,
  },
  {
    name: 'DynamoDB failing the write',
    error: () => new InternalServerError({ message: 'Internal server error', $metadata: {} }),
    status: 500,
    message: INTERNAL,
  },
  {
    name: 'a transaction cancelled for a reason the store cannot answer',
    error: () => cancelledTransaction('None', 'ItemCollectionSizeLimitExceeded'),
    status: 500,
    message: INTERNAL,
    transactionsOnly: true,
  },
];

/** The mock is typed for one command class at a time. */
function failWrite(write: WriteCommand, error: Error): void {
  if (write === PutCommand) dynamo.on(PutCommand).rejects(error);
  else dynamo.on(TransactWriteCommand).rejects(error);
}

const faultCases = writeFixtures.flatMap((fixture) =>
  faults.filter((fault) => !fault.transactionsOnly || fixture.write === TransactWriteCommand).map((fault) => ({ ...fixture, fault })),
);

describe('a DynamoDB fault on a write', () => {
  it.each(faultCases)(
    '$operation answers $fault.status to $fault.name, having written nothing',
    async ({ operation, write, items, given, state, fault }) => {
      // Prepare
      const user = await givenUser();
      const params = await given(user);
      const before = await state(user, params);
      dynamo.resetHistory();
      failWrite(write, fault.error());
      // Act
      const result = await invoke(operation, user, params);
      // Assess
      expectEnvelope(result, fault.status, fault.message);
      expect(writesSent()).toEqual([write.name]);
      const [sent] = dynamo.commandCalls(TransactWriteCommand);
      expect(sent?.args[0].input.TransactItems?.length ?? 1).toBe(items);
      expect(await state(user, params)).toEqual(before);
    },
  );
});

describe('addRoute with raw stops when the route cannot be written', () => {
  it('leaves neither the route nor its new locations behind, and its retry creates them once', async () => {
    // Prepare
    const user = await givenUser();
    const stops = stopsText(rawStops(3));
    dynamo.resetHistory();
    dynamo.on(TransactWriteCommand).rejectsOnce(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    // Act
    const failed = await invoke('addRoute', user, { route_name: 'Morning run', stops });
    const afterFailure = await read(user, 'getUserLocations');
    const retried = await invoke('addRoute', user, { route_name: 'Morning run', stops });
    // Assess
    expectEnvelope(failed, 429, THROTTLED);
    expect(afterFailure.cnt).toBe(0);
    expect(writesSent()).toEqual(['TransactWriteCommand', 'TransactWriteCommand']);
    expect(retried.statusCode).toBe(200);
    expect(JSON.parse(retried.body).stops.map((stop: { created: boolean }) => stop.created)).toEqual([true, true, true]);
    expect((await read(user, 'getUserLocations')).cnt).toBe(3);
    expect((await read(user, 'getRoutes')).cnt).toBe(1);
  });
});

// ---- S3 down ----------------------------------------------------------------------------------

/** S3's own 503: a passing outage, answered as one. */
const UNAVAILABLE = 'service unavailable, retry later';
const s3Down = () =>
  new S3ServiceException({ name: 'ServiceUnavailable', message: 'Service is unable to handle request.', $fault: 'server', $metadata: {} });

/** A fake OSRM on 127.0.0.1: every leg 1 km and 60 s, every request counted. */
async function startFakeOsrm(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const fake = { url: '', requests: 0, close: async () => {} };
  const server = createServer((req, res) => {
    fake.requests++;
    const points = (new URL(req.url ?? '/', 'http://osrm').pathname.split('/').pop() ?? '').split(';');
    const legs = points.slice(1).map(() => ({ distance: 1000, duration: 60, steps: [], summary: '', weight: 60 }));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'Ok', routes: [{ legs }], waypoints: [] }));
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.origin;
  fake.close = listening.close;
  return fake;
}

describe('S3 down', () => {
  let staticMaps: FakeStaticMaps;
  let osrm: Awaited<ReturnType<typeof startFakeOsrm>>;

  beforeAll(async () => {
    staticMaps = await startFakeStaticMaps();
    osrm = await startFakeOsrm();
  });

  afterAll(async () => {
    await staticMaps.close();
    await osrm.close();
  });

  it.each([
    ['every S3 request failing', [GetObjectCommand, PutObjectCommand]],
    ['only storing the map failing', [PutObjectCommand]],
  ])('getLiveMap answers the 503 envelope to %s', async (_case, failing) => {
    // Prepare
    Object.assign(process.env, { LIVE_MAP_PROVIDER: 'google', GOOGLE_STATIC_MAPS_URL: staticMaps.url });
    const user = await givenUser();
    await givenPlacedVehicle(user, somewhere());
    for (const command of failing) s3.on(command).rejects(s3Down());
    // Act
    const result = await invoke('getLiveMap', user, { map_api_key: 'map-key' });
    // Assess
    expectEnvelope(result, 503, UNAVAILABLE);
  });

  it('getLiveMap answers 429 when S3 asks it to slow down', async () => {
    const user = await givenUser();
    await givenPlacedVehicle(user, somewhere());
    s3.on(GetObjectCommand).rejects(
      new S3ServiceException({ name: 'SlowDown', message: 'Please reduce your request rate.', $fault: 'client', $metadata: {} }),
    );
    expectEnvelope(await invoke('getLiveMap', user, { map_api_key: 'map-key' }), 429, THROTTLED);
  });

  it.each([
    ['every S3 request failing', [GetObjectCommand, PutObjectCommand], 0],
    ['only caching the directions failing', [PutObjectCommand], 1],
  ])('addRoute with OSRM answers the 503 envelope to %s, saving no location and no route', async (_case, failing, osrmCalls) => {
    // Prepare
    Object.assign(process.env, { DIRECTIONS_PROVIDER: 'osrm', OSRM_URL: osrm.url });
    const user = await givenUser();
    const before = osrm.requests;
    for (const command of failing) s3.on(command).rejects(s3Down());
    dynamo.resetHistory();
    // Act
    const result = await invoke('addRoute', user, { route_name: 'Morning run', stops: stopsText(rawStops(3)) });
    // Assess
    expectEnvelope(result, 503, UNAVAILABLE);
    expect(osrm.requests - before).toBe(osrmCalls);
    expect(writesSent()).toEqual([]);
    expect((await read(user, 'getUserLocations')).cnt).toBe(0);
    expect((await read(user, 'getRoutes')).cnt).toBe(0);
  });
});

// ---- provider down ----------------------------------------------------------------------------

/** A server that takes each connection and drops it at once, as a crashed or overloaded provider does. */
async function startDroppingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer();
  server.on('connection', (socket) => socket.destroy());
  const { origin, close } = await listenOnLoopback(server);
  return { url: origin, close };
}

describe('a provider that is down', () => {
  let dropping: Awaited<ReturnType<typeof startDroppingServer>>;

  beforeAll(async () => {
    dropping = await startDroppingServer();
  });

  afterAll(async () => {
    await dropping.close();
  });

  const closedPort = async () => `http://127.0.0.1:${await freePort()}`;
  const providers = [
    ['on a closed port', closedPort],
    ['dropping every connection', async () => dropping.url],
  ] as const;

  it.each(providers)('getLiveMap answers 502 to Google Static Maps %s', async (_case, url) => {
    Object.assign(process.env, { LIVE_MAP_PROVIDER: 'google', GOOGLE_STATIC_MAPS_URL: `${await url()}/maps/api/staticmap` });
    const user = await givenUser();
    await givenPlacedVehicle(user, somewhere());
    expectEnvelope(await invoke('getLiveMap', user, { map_api_key: 'map-key' }), 502, 'Google Static Maps could not be reached');
  });

  it.each([
    ['osrm', 'on a closed port', closedPort],
    ['osrm', 'dropping every connection', async () => dropping.url],
    ['google', 'on a closed port', closedPort],
    ['google', 'dropping every connection', async () => dropping.url],
  ] as const)('addRoute answers 502 to %s %s, saving nothing', async (provider, _case, url) => {
    // Prepare
    const base = await url();
    Object.assign(process.env, {
      DIRECTIONS_PROVIDER: provider,
      OSRM_URL: base,
      GOOGLE_DIRECTIONS_URL: base,
      GOOGLE_DIRECTIONS_API_KEY: 'test-key',
    });
    const user = await givenUser();
    dynamo.resetHistory();
    // Act
    const result = await invoke('addRoute', user, { route_name: 'Morning run', stops: stopsText(rawStops(2)) });
    // Assess
    expectEnvelope(result, 502, `directions provider ${provider} could not be reached`);
    expect(writesSent()).toEqual([]);
    expect((await read(user, 'getUserLocations')).cnt).toBe(0);
  });
});
