import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, Context } from 'aws-lambda';
import { findDeviceEndpoint, findOperation, handlerPath, operations, streamConsumers } from '../functions/registry.ts';
import { type GatewayAnswer, gatewayAnswerBody, gatewayAnswers } from '../infra/api/gateway-answers.ts';
import { type DocsAsset, docsResponse } from '../shared/api-docs.ts';
import { env, limits } from '../shared/config.ts';
import { CONSOLE_CLIENT_ID, consoleCsp } from '../shared/console/site.ts';
import { localPipelineSink } from '../shared/devices/local-sink.ts';
import type { PositionSink } from '../shared/devices/position-sink.ts';
import { useLocalSink } from '../shared/devices/sinks.ts';
import { lambdaResponseSize } from '../shared/middleware/answer-encoding.ts';
import { envelopeResponse } from '../shared/middleware/envelope.ts';
import { openApiDocument } from '../shared/openapi.ts';
import { processPositions } from '../shared/pipeline/process-positions.ts';
import { lambdaContext, toApiGatewayEvent, toHttpApiEvent } from './api-gateway-event.ts';
import { consoleConfig, consoleResponse } from './console-files.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './iam/arns.ts';
import { authorize, runAs } from './iam/enforcement.ts';
import { type LocalOidcProvider, localOidcProvider } from './oidc/provider.ts';

type GatewayEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;
type LambdaHandler = (event: GatewayEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway's own payload limit; the handlers enforce the service's smaller one. */
const GATEWAY_MAX_BODY_BYTES = limits.gatewayPayloadBytes;
/** Past this much, an oversized body is no longer drained: the connection is cut after the 413. */
const MAX_DRAINED_BYTES = 4 * GATEWAY_MAX_BODY_BYTES;

/** What API Gateway sends for one of its own answers: the gateway response the stack configures (infra/api/gateway-answers.ts). */
const gatewayResponse = (answer: GatewayAnswer, status = 502): APIGatewayProxyResult => ({
  statusCode: answer.status ?? status,
  headers: { 'Content-Type': 'application/json', ...answer.headers },
  body: gatewayAnswerBody(answer),
});

/** A Lambda that timed out, crashed or answered over its limit: API Gateway's 502, in the DEFAULT_5XX response. */
const FUNCTION_FAILED = gatewayResponse(gatewayAnswers.Default5xx);

/** A request line and headers over API Gateway's quota never reach a function: the answer Node gives past its own limit. */
const HEADERS_TOO_LARGE: APIGatewayProxyResult = envelopeResponse(431, {}, 'request headers too large');

const swaggerUiDist = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const readAsset = (name: DocsAsset): Buffer => readFileSync(new URL(name, `file://${swaggerUiDist}`));

export interface ApiEmulator {
  url: string;
  close(): Promise<void>;
}

/**
 * A node:http stand-in for API Gateway: `/api/<name>` becomes the REST proxy event of that operation's resource for the
 * registry's handler, and the handler's result becomes the HTTP response, as in AWS.
 */
export interface ApiEmulatorOptions {
  port: number;
  host?: string;
  /** Lambda's timeout, enforced as Lambda does; the stack's value unless a test needs a shorter one */
  functionTimeoutMs?: number;
  /** API Gateway's integration timeout (29 s); a test may set a shorter one */
  integrationTimeoutMs?: number;
  /** Lambda's response limit, counted on the response JSON as Lambda does (6 MB); a test may set a smaller one */
  lambdaResponseBytes?: number;
}

export async function startApiEmulator({
  port,
  host = '127.0.0.1',
  functionTimeoutMs = limits.functionTimeoutSeconds * 1000,
  integrationTimeoutMs = limits.integrationTimeoutSeconds * 1000,
  lambdaResponseBytes = limits.lambdaResponseBytes,
}: ApiEmulatorOptions): Promise<ApiEmulator> {
  // A basemap style that is no http(s) URL stops the start here, not every console page later (its CSP names its origin).
  consoleCsp(consoleConfig());
  // Device entry points feed the local pipeline in batches, as the stream feeds processPositions in AWS.
  const [consumer] = streamConsumers;
  useLocalSink(
    streamPutsChecked(
      localPipelineSink({ process: (batch, options) => runAs(handlerPath(consumer.name), () => processPositions(batch, options)) }),
    ),
  );
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const loadHandler = (name: string): Promise<LambdaHandler> => {
    let loaded = handlers.get(name);
    if (!loaded) {
      loaded = import(new URL(`../${handlerPath(name)}`, import.meta.url).href).then((module) => module.handler as LambdaHandler);
      handlers.set(name, loaded);
    }
    return loaded;
  };

  /** Lambda's limits on the function's result: its timeout and its response size, each a 502 from API Gateway. */
  const invokeLambda = async (name: string, event: GatewayEvent): Promise<APIGatewayProxyResult> => {
    const eventBytes = Buffer.byteLength(JSON.stringify(event), 'utf8');
    if (eventBytes > limits.lambdaRequestBytes) {
      console.error(`api emulator: ${name}'s event is ${eventBytes} bytes, over Lambda's ${limits.lambdaRequestBytes}`);
      return gatewayResponse(gatewayAnswers.TooLarge);
    }
    const handler = await loadHandler(name);
    const running = runAs(handlerPath(name), () => handler(event, lambdaContext(name, randomUUID(), functionTimeoutMs)));
    const result = await raceTimeout(running, functionTimeoutMs, () => {
      console.error(`api emulator: ${name} timed out after ${functionTimeoutMs / 1000} seconds`);
      return FUNCTION_FAILED;
    });
    const size = lambdaResponseSize(result);
    if (size <= lambdaResponseBytes) return result;
    console.error(`api emulator: ${name} answered ${size} bytes, over Lambda's ${lambdaResponseBytes}`);
    return FUNCTION_FAILED;
  };

  /** API Gateway's integration timeout around the invocation: past it the client gets the 504 gateway response. */
  const runHandler = (name: string, event: GatewayEvent): Promise<APIGatewayProxyResult> =>
    raceTimeout(invokeLambda(name, event), integrationTimeoutMs, () => {
      console.error(`api emulator: ${name} passed the integration timeout of ${integrationTimeoutMs / 1000} seconds`);
      return gatewayResponse(gatewayAnswers.Timeout);
    });

  const oidc = localOidcProvider(`http://${host}:${port}`);
  useLocalIssuer(oidc);
  const server = createServer((req, res) => {
    serve(req, res, runHandler, oidc).catch((error: unknown) => {
      console.error('api emulator: handler failed outside its middleware', error);
      send(res, FUNCTION_FAILED);
    });
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The local pipeline takes what the stream would: a put is the caller's PutRecords on the stream its environment names
 * (a device function's or the listener's), refused as AWS would refuse it when its role does not allow it.
 */
function streamPutsChecked(sink: PositionSink): PositionSink {
  const streamArn = (name = '(no POSITIONS_STREAM_NAME)') => `arn:aws:kinesis:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stream/${name}`;
  return {
    async put(records) {
      await authorize((principal) => [
        { action: 'kinesis:PutRecords', resource: streamArn(principal.environment[env.positionsStreamName]), context: {} },
      ]);
      return sink.put(records);
    },
  };
}

async function raceTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Locally the handlers accept the local provider's tokens, as a deployed function accepts its issuer's (the same
 * settings, docs/console.md): the emulator's handlers run in its process.
 */
function useLocalIssuer(oidc: LocalOidcProvider): void {
  process.env[env.oidcIssuer] = oidc.issuer;
  process.env[env.oidcAudience] = oidc.audience;
  process.env[env.oidcJwksUri] = `${oidc.issuer}/jwks`;
  process.env[env.oidcClientId] = CONSOLE_CLIENT_ID;
}

type RunHandler = (name: string, event: GatewayEvent) => Promise<APIGatewayProxyResult>;

async function serve(req: IncomingMessage, res: ServerResponse, runHandler: RunHandler, oidc: LocalOidcProvider) {
  if (requestLineAndHeaderBytes(req) > limits.gatewayRequestLineAndHeaderBytes) return send(res, HEADERS_TOO_LARGE);
  if (await oidc.handle(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://localhost');
  // The OpenAPI document (made at request time from the registry and the handlers' schemas) and the docs page.
  const docs = docsResponse(
    { method: req.method ?? 'GET', path: url.pathname, headers: flattenHeaders(req) },
    { readAsset, document: (options) => openApiDocument(operations, options) },
  );
  if (docs) return send(res, docs);
  const consolePage = await consoleResponse(req.method ?? 'GET', url.pathname);
  if (consolePage) return send(res, consolePage);
  const name = /^\/api\/([^/]+)\/?$/.exec(url.pathname)?.[1] ?? '';
  // Device entry points have resources of their own, with the token as a path parameter (docs/devices.md).
  const device = findDeviceEndpoint(url.pathname);
  const operation = device?.endpoint ?? findOperation(name);
  if (!operation) return send(res, gatewayResponse(gatewayAnswers.UnknownOperation));
  const body = await readBody(req);
  if (!body) return send(res, gatewayResponse(gatewayAnswers.TooLarge));

  // Devices are served as the HTTP API serves them in AWS (payload 2.0), operations as the REST API does (1.0).
  const event = (device ? toHttpApiEvent : toApiGatewayEvent)({
    method: req.method ?? 'GET',
    path: url.pathname,
    operation: operation.name,
    ...(device ? { resource: device.resource } : {}),
    ...(device?.token ? { pathParameters: { token: device.token } } : {}),
    query: url.search.slice(1),
    headers: flattenHeaders(req),
    body,
    sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  });
  send(res, await runHandler(operation.name, event));
}

/**
 * Requests Node cannot parse never reach a handler: a header block over Node's maxHeaderSize gets a 431,
 * anything else malformed a 400, both in the envelope, and the connection is closed (its state is unknown).
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request headers too large']
      : [400, 'Bad Request', 'bad request'];
  const body = Buffer.from(envelopeResponse(status, {}, message).body, 'utf8');
  const head = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${body.length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** What API Gateway counts against its 10240 bytes: the request line and every header value (not the names). */
function requestLineAndHeaderBytes(req: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}`, 'latin1');
  for (let i = 1; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i] as string, 'latin1');
  return bytes;
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i] as string] = req.rawHeaders[i + 1] as string;
  return headers;
}

/**
 * The body, or undefined when it is over API Gateway's limit. An oversized body is still read to its end
 * (up to a cap) and dropped: closing a socket with unread data resets it, and the client would lose the 413.
 */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_DRAINED_BYTES) return undefined;
    if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > GATEWAY_MAX_BODY_BYTES ? undefined : Buffer.concat(chunks);
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  // After a 413 the client's framing is not to be trusted (a body may still be on its way): the next request gets a new connection.
  const closing = result.statusCode === 413 ? { Connection: 'close' } : {};
  res.writeHead(result.statusCode, { ...result.headers, ...closing, 'Content-Length': body.length } as Record<string, string | number>);
  res.end(body);
}
