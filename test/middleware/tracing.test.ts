/**
 * X-Ray segments seen from the daemon's side: a UDP socket on 127.0.0.1 stands in for the X-Ray daemon Lambda runs,
 * and the functions' code sends to it what it sends in AWS when Lambda samples an invocation (shared/tracing.ts).
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as getVehicles } from '../../functions/getVehicles/handler.ts';
import { lambdaContext, toApiGatewayEvent } from '../../local/api-gateway-event.ts';
import { awsClientTimeouts, config } from '../../shared/config.ts';
import { Throttled } from '../../shared/errors.ts';
import { tableName } from '../../shared/store/client.ts';
import { daemonAddress, parseTraceHeader, Tracer, traceInvocation } from '../../shared/tracing.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';

type Document = Record<string, any>;

/** The daemon: every subsegment document received, and a wait for one that matches. */
class FakeDaemon {
  readonly documents: Document[] = [];
  #waiting: { match: (document: Document) => boolean; resolve: (document: Document) => void }[] = [];

  readonly socket: Socket;

  constructor(socket: Socket) {
    this.socket = socket;
    socket.on('message', (message) => {
      const [header, body] = String(message).split('\n');
      expect(JSON.parse(header as string)).toEqual({ format: 'json', version: 1 });
      const document = JSON.parse(body as string) as Document;
      this.documents.push(document);
      for (const waiter of this.#waiting.filter(({ match }) => match(document))) waiter.resolve(document);
    });
  }

  get address(): string {
    return `127.0.0.1:${(this.socket.address() as AddressInfo).port}`;
  }

  /** The first document of the trace whose name is `name`, once it has arrived. */
  received(traceId: string, name: string): Promise<Document> {
    const match = (document: Document) => document.trace_id === traceId && document.name === name;
    const arrived = this.documents.find(match);
    return arrived ? Promise.resolve(arrived) : new Promise((resolve) => this.#waiting.push({ match, resolve }));
  }

  of(traceId: string): Document[] {
    return this.documents.filter((document) => document.trace_id === traceId);
  }
}

let daemon: FakeDaemon;
let traces = 0;

/** A new trace of a Lambda invocation, as Lambda's header names it: its root, the function segment's id, sampled or not. */
function givenInvocationTrace({ sampled = true } = {}): { root: string; parent: string } {
  traces += 1;
  const root = `1-6760a000-${String(traces).padStart(24, '0')}`;
  const parent = `53995c3f42cd${String(traces).padStart(4, '0')}`;
  process.env._X_AMZN_TRACE_ID = `Root=${root};Parent=${parent};Sampled=${sampled ? 1 : 0}`;
  return { root, parent };
}

/** A DynamoDB client on the run's DynamoDB Local, recording the trace header each request carries. */
function givenCapturedClient(tracer: Tracer): { client: DynamoDBClient; traceHeaders: (string | undefined)[] } {
  const traceHeaders: (string | undefined)[] = [];
  const client = new DynamoDBClient({
    ...awsClientTimeouts(),
    endpoint: config.dynamodbEndpoint(),
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  client.middlewareStack.add(
    (next) => (args) => {
      traceHeaders.push((args.request as { headers: Record<string, string> }).headers['X-Amzn-Trace-Id']);
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordTraceHeader' },
  );
  return { client: tracer.captureAWSv3Client(client), traceHeaders };
}

const listVehicles = (key: string) =>
  getVehicles(
    toApiGatewayEvent({
      method: 'GET',
      path: '/api/getVehicles',
      operation: 'getVehicles',
      query: '',
      headers: { 'X-Api-Key': key },
      body: Buffer.alloc(0),
      sourceIp: '198.51.100.7',
    }),
    lambdaContext('getVehicles', 'tracing-test'),
  );

beforeAll(async () => {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  daemon = new FakeDaemon(socket);
  process.env.AWS_XRAY_DAEMON_ADDRESS = daemon.address;
});
afterEach(() => {
  delete process.env._X_AMZN_TRACE_ID;
});
afterAll(() => {
  delete process.env.AWS_XRAY_DAEMON_ADDRESS;
  daemon.socket.close();
});

describe('tracing of an API call', () => {
  it("sends the handler's subsegment under Lambda's, with the operation and the key's user, and one per DynamoDB call", async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user, { name: 'Traced van 7' });
    const trace = givenInvocationTrace();
    // Act
    const answer = await listVehicles(user.key);
    // Assess
    expect(answer.statusCode).toBe(200);
    const handlerSegment = await daemon.received(trace.root, '## handler');
    expect(handlerSegment).toMatchObject({
      type: 'subsegment',
      parent_id: trace.parent,
      annotations: { ColdStart: expect.any(Boolean), Service: 'fleet-tracking', operation: 'getVehicles', user_uid: user.userUid },
    });
    expect(handlerSegment.end_time).toBeGreaterThanOrEqual(handlerSegment.start_time);
    const calls = daemon.of(trace.root).filter((document) => document.namespace === 'aws');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call).toMatchObject({ name: 'DynamoDB', parent_id: handlerSegment.id, aws: { region: 'local', retries: 0 } });
      expect(call.aws.table_name ?? call.aws.table_names).toEqual(call.aws.table_name ? tableName() : [tableName()]);
      expect(call.aws.operation).toMatch(/^(GetItem|Query|UpdateItem|BatchGetItem|TransactWriteItems|PutItem)$/);
      expect(call.http).toEqual({ response: { status: 200 } });
    }
    expect(JSON.stringify(daemon.of(trace.root))).not.toContain(vehicle.name);
    expect(JSON.stringify(daemon.of(trace.root))).not.toContain(user.key);
  });

  it('sends nothing of an invocation Lambda did not sample', async () => {
    // Prepare
    const user = await givenUser();
    const unsampled = givenInvocationTrace({ sampled: false });
    await listVehicles(user.key);
    const sampled = givenInvocationTrace();
    // Act: the sampled call's documents leave the same socket after anything the first call would have sent
    await listVehicles(user.key);
    // Assess
    await daemon.received(sampled.root, '## handler');
    expect(daemon.of(unsampled.root)).toEqual([]);
  });
});

describe('tracing of a failing call', () => {
  it('marks a refused request as an error, and a throttled one as a throttle, never as a fault', async () => {
    // Prepare
    const invocations = [givenInvocationTrace()];
    await listVehicles('no-such-key');
    const tracer = new Tracer('tracing-test');
    const throttled = middy()
      .use(traceInvocation(tracer))
      .handler(() => Promise.reject(new Throttled('too many requests')));
    invocations.push(givenInvocationTrace());
    // Act
    await throttled({}, lambdaContext('tracing-test', 'throttled')).catch(() => undefined);
    // Assess
    const [refused, limited] = await Promise.all(invocations.map((trace) => daemon.received(trace.root, '## handler')));
    expect(refused).toMatchObject({ error: true, cause: { exceptions: [{ type: 'Unauthorized' }] } });
    expect(limited).toMatchObject({ error: true, throttle: true, cause: { exceptions: [{ type: 'Throttled' }] } });
    expect([refused?.fault, limited?.fault]).toEqual([undefined, undefined]);
  });

  it("flags the SDK call's error with its cause, passes the trace on to the service, and marks the handler's fault", async () => {
    // Prepare
    const tracer = new Tracer('tracing-test');
    const { client, traceHeaders } = givenCapturedClient(tracer);
    const run = middy()
      .use(traceInvocation(tracer))
      .handler(() => client.send(new GetItemCommand({ TableName: 'no-such-table', Key: { pk: { S: 'x' } } })));
    const trace = givenInvocationTrace();
    // Act
    const outcome = await run({}, lambdaContext('tracing-test', 'failing')).catch((error: Error) => error);
    // Assess
    expect(outcome).toMatchObject({ name: 'ResourceNotFoundException' });
    const handlerSegment = await daemon.received(trace.root, '## handler');
    expect(handlerSegment).toMatchObject({ fault: true, cause: { exceptions: [{ type: 'ResourceNotFoundException' }] } });
    const call = await daemon.received(trace.root, 'DynamoDB');
    expect(call).toMatchObject({
      parent_id: handlerSegment.id,
      error: true,
      http: { response: { status: 400 } },
      aws: { operation: 'GetItem', table_name: 'no-such-table', region: 'local', request_id: expect.any(String) },
      cause: { exceptions: [{ type: 'ResourceNotFoundException', remote: true }] },
    });
    expect(call.fault).toBeUndefined();
    expect(traceHeaders).toEqual([`Root=${trace.root};Parent=${call.id};Sampled=1`]);
  });
});

describe('the cold start annotation', () => {
  it("is true on the container's first invocation only", async () => {
    // Prepare
    const tracer = new Tracer('tracing-test');
    const run = middy()
      .use(traceInvocation(tracer))
      .handler(async () => ({}));
    const traced = [];
    // Act
    for (let i = 0; i < 2; i++) {
      const trace = givenInvocationTrace();
      await run({}, lambdaContext('tracing-test', `call-${i}`));
      traced.push(await daemon.received(trace.root, '## handler'));
    }
    // Assess
    expect(traced.map((document) => document.annotations.ColdStart)).toEqual([true, false]);
  });
});

describe("Lambda's settings", () => {
  it('reads the trace header, sampled or not, and refuses one without a root or parent', () => {
    expect(parseTraceHeader('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1')).toEqual({
      root: '1-5759e988-bd862e3fe1be46a994272793',
      parent: '53995c3f42cd8ad8',
      sampled: true,
    });
    expect(parseTraceHeader('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0')?.sampled).toBe(false);
    expect(parseTraceHeader('Root=1-5759e988-bd862e3fe1be46a994272793')).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
  });

  it("reads the daemon's address in both of its forms, and none outside Lambda", () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
    expect(daemonAddress(undefined)).toBeUndefined();
  });
});
