/**
 * X-Ray segments from the functions, sent to the X-Ray daemon Lambda runs beside each function (active tracing) in the
 * daemon's UDP protocol, with Node's own dgram: the segments Powertools Tracer sent (a `## handler` subsegment per
 * invocation with its annotations, a subsegment per AWS SDK call with the trace header passed on), without the X-Ray
 * SDK, which was half of every bundle and most of our own module init (docs/operations.md#cold-starts).
 *
 * On only where Lambda says the invocation is sampled (`_X_AMZN_TRACE_ID` with `Sampled=1`) and names the daemon
 * (`AWS_XRAY_DAEMON_ADDRESS`): outside Lambda (local stack, tests, scripts) every call is a no-op. A Lambda container
 * serves one invocation at a time, so the open invocation is the module's.
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { MiddlewareObj } from '@middy/core';

type AnnotationValue = string | number | boolean;

interface Cause {
  exceptions: { id: string; message: string; type: string; remote?: true }[];
}

/** One subsegment document as the daemon takes it (https://docs.aws.amazon.com/xray/latest/devguide/xray-api-segmentdocuments.html). */
interface Subsegment {
  type: 'subsegment';
  id: string;
  trace_id: string;
  parent_id: string;
  name: string;
  start_time: number;
  end_time?: number;
  namespace?: 'aws';
  annotations?: Record<string, AnnotationValue>;
  aws?: Record<string, unknown>;
  http?: { response: { status: number } };
  error?: true;
  throttle?: true;
  fault?: true;
  cause?: Cause;
}

interface TraceHeader {
  root: string;
  parent: string;
  sampled: boolean;
}

/** `Root=1-…;Parent=…;Sampled=1`, the header Lambda sets for each invocation; undefined when it holds no root. */
export function parseTraceHeader(header: string | undefined): TraceHeader | undefined {
  const fields = new Map((header ?? '').split(';').map((field) => field.trim().split('=') as [string, string | undefined]));
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  if (!root || !parent) return undefined;
  return { root, parent, sampled: fields.get('Sampled') === '1' };
}

/** The daemon's UDP address from `AWS_XRAY_DAEMON_ADDRESS` (`host:port`, or `tcp:host:port udp:host:port`). */
export function daemonAddress(setting: string | undefined): { host: string; port: number } | undefined {
  const udp =
    setting
      ?.split(' ')
      .find((part) => part.startsWith('udp:'))
      ?.slice('udp:'.length) ?? setting;
  const match = udp?.match(/^(.+):(\d+)$/);
  return match ? { host: match[1] as string, port: Number(match[2]) } : undefined;
}

const DAEMON_HEADER = '{"format":"json","version":1}\n';
/** Milliseconds, as the X-Ray SDK wrote them: the global `performance` loads perf_hooks at its first use (0.5 ms of a cold call). */
const epochSeconds = (): number => Date.now() / 1000;
const newId = (): string => randomBytes(8).toString('hex');

/** An SDK v3 client: its config and middleware stack, of which the capture adds two steps. */
interface CapturableClient {
  config: object;
  middlewareStack: object;
}

interface MiddlewareAdder {
  add(middleware: unknown, options: { step: 'initialize' | 'build'; name: string; priority?: 'high' }): void;
}

const SUBSEGMENT = Symbol('x-ray subsegment');

interface SdkCallContext {
  clientName?: string;
  commandName?: string;
  [SUBSEGMENT]?: Subsegment;
}

interface SdkMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

interface SdkError {
  name?: string;
  message?: string;
  $metadata?: SdkMetadata;
}

type SdkArgs = { input?: DynamoDBInput };
type SdkHandler = (args: SdkArgs) => Promise<{ output: { $metadata?: SdkMetadata } }>;

export class Tracer {
  #invocation: { header: TraceHeader; handler: Subsegment } | undefined;
  #coldStart = true;
  #socket: Socket | undefined;

  readonly #serviceName: string;

  constructor(serviceName: string) {
    this.#serviceName = serviceName;
  }

  /** Searchable on this invocation's handler subsegment (`annotation.user_uid = 42`); nothing when it is not traced. */
  putAnnotation(key: string, value: AnnotationValue): void {
    if (this.#invocation) this.#invocation.handler.annotations = { ...this.#invocation.handler.annotations, [key]: value };
  }

  /**
   * Each call of the client a subsegment under the open invocation (retries included, with the request id, the status
   * and DynamoDB's tables), and the trace header passed on to the service, as the X-Ray SDK's capture does.
   */
  captureAWSv3Client<Client extends CapturableClient>(client: Client): Client {
    // The stack's typed `add` has an overload per step; both steps here take what every SDK v3 stack takes.
    const stack = client.middlewareStack as MiddlewareAdder;
    stack.add((next: SdkHandler, context: SdkCallContext) => (args: SdkArgs) => this.#traceSdkCall(client, context, args, next), {
      step: 'initialize',
      name: 'xrayCapture',
      priority: 'high',
    });
    stack.add(
      (next: (args: { request: { headers?: Record<string, string> } }) => Promise<unknown>, context: SdkCallContext) =>
        (args: { request: { headers?: Record<string, string> } }) => {
          const subsegment = context[SUBSEGMENT];
          if (subsegment && args.request.headers) {
            args.request.headers['X-Amzn-Trace-Id'] = `Root=${subsegment.trace_id};Parent=${subsegment.id};Sampled=1`;
          }
          return next(args);
        },
      { step: 'build', name: 'xrayTraceHeader' },
    );
    return client;
  }

  async #traceSdkCall(client: CapturableClient, context: SdkCallContext, args: SdkArgs, next: SdkHandler) {
    const invocation = this.#invocation;
    if (!invocation) return next(args);
    const subsegment: Subsegment = {
      type: 'subsegment',
      id: newId(),
      trace_id: invocation.header.root,
      parent_id: invocation.handler.id,
      name: (context.clientName ?? 'AWS').replace(/(Document)?Client$/, ''),
      namespace: 'aws',
      start_time: epochSeconds(),
    };
    context[SUBSEGMENT] = subsegment;
    const call = {
      operation: (context.commandName ?? '').replace(/Command$/, ''),
      region: await regionOf(client),
      ...tablesOf(args.input),
    };
    try {
      const result = await next(args);
      this.#send(endedCall(subsegment, call, result.output.$metadata));
      return result;
    } catch (error) {
      this.#send(endedCall(subsegment, call, (error as SdkError).$metadata, error as SdkError));
      throw error;
    }
  }

  /** Opens the invocation's `## handler` subsegment when Lambda samples it; the first of the container is its cold start. */
  openInvocation(): void {
    const coldStart = this.#coldStart;
    this.#coldStart = false;
    const header = parseTraceHeader(process.env._X_AMZN_TRACE_ID);
    this.#invocation = undefined;
    if (!header?.sampled || !daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS)) return;
    this.#invocation = {
      header,
      handler: {
        type: 'subsegment',
        id: newId(),
        trace_id: header.root,
        parent_id: header.parent,
        name: `## ${process.env._HANDLER ?? 'handler'}`,
        start_time: epochSeconds(),
        annotations: { ColdStart: coldStart, Service: this.#serviceName },
      },
    };
  }

  /**
   * Sends the handler subsegment, marked with the error that ended it (a typed error by its status: a refused request
   * is an error, not a fault); resolves once the daemon's socket took it.
   */
  async closeInvocation(error?: unknown): Promise<void> {
    const invocation = this.#invocation;
    this.#invocation = undefined;
    if (!invocation) return;
    const handler: Subsegment = { ...invocation.handler, end_time: epochSeconds() };
    if (error === undefined) return this.#send(handler);
    const { status } = error as { status?: unknown };
    await this.#send({
      ...handler,
      ...errorFlags(typeof status === 'number' ? status : undefined),
      cause: causeOf(error as SdkError, false),
    });
  }

  #send(subsegment: Subsegment): Promise<void> {
    const daemon = daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS);
    if (!daemon) return Promise.resolve();
    if (!this.#socket) {
      this.#socket = createSocket('udp4');
      this.#socket.unref();
      // A lost segment must never fail the call it describes, nor the process: errors are dropped with it.
      this.#socket.on('error', () => undefined);
    }
    const socket = this.#socket;
    return new Promise((resolve) => socket.send(DAEMON_HEADER + JSON.stringify(subsegment), daemon.port, daemon.host, () => resolve()));
  }
}

/** The handler subsegment around the rest of the chain; the response is never recorded (it may hold a tenant's data). */
export function traceInvocation(tracer: Tracer): MiddlewareObj {
  return {
    before: () => tracer.openInvocation(),
    after: () => tracer.closeInvocation(),
    onError: (request) => tracer.closeInvocation(request.error ?? undefined),
  };
}

interface DynamoDBInput {
  TableName?: unknown;
  RequestItems?: unknown;
}

/** DynamoDB's tables, as the X-Ray SDK names them: one call's table, or the tables of a batch. */
function tablesOf(input: DynamoDBInput | undefined): { table_name?: string; table_names?: string[] } {
  if (typeof input?.TableName === 'string') return { table_name: input.TableName };
  if (input?.RequestItems && typeof input.RequestItems === 'object') return { table_names: Object.keys(input.RequestItems) };
  return {};
}

async function regionOf(client: CapturableClient): Promise<string | undefined> {
  const { region } = client.config as { region?: unknown };
  const value = typeof region === 'function' ? await region() : region;
  return typeof value === 'string' ? value : undefined;
}

/** The SDK call's subsegment once it answered or failed: its status, request id and retries, and the error's flags. */
function endedCall(subsegment: Subsegment, call: Record<string, unknown>, metadata: SdkMetadata | undefined, error?: SdkError): Subsegment {
  const status = metadata?.httpStatusCode;
  return {
    ...subsegment,
    end_time: epochSeconds(),
    aws: { ...call, request_id: metadata?.requestId, retries: Math.max(0, (metadata?.attempts ?? 1) - 1) },
    ...(status ? { http: { response: { status } } } : {}),
    ...(error ? { ...errorFlags(status), cause: causeOf(error, true) } : {}),
  };
}

/** X-Ray's flags: a 429 is a throttle and an error, another 4xx an error, a 5xx (or no answer) a fault. */
function errorFlags(status: number | undefined): Pick<Subsegment, 'error' | 'throttle' | 'fault'> {
  if (status === 429) return { error: true, throttle: true };
  if (status !== undefined && status >= 400 && status < 500) return { error: true };
  return { fault: true };
}

function causeOf(error: SdkError, remote: boolean): Cause {
  return {
    exceptions: [
      { id: newId(), message: String(error?.message ?? error), type: error?.name ?? 'Error', ...(remote ? { remote: true as const } : {}) },
    ],
  };
}
