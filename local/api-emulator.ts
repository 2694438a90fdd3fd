import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { envelopeResponse } from '../shared/middleware/envelope.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type DocsAsset, docsResponse } from '../shared/api-docs.ts';
import { openApiDocument } from '../shared/openapi.ts';
import { findOperation, handlerPath } from '../shared/operations.ts';
import { lambdaContext, toApiGatewayEvent } from './api-gateway-event.ts';

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway's own payload limit; the handlers enforce the service's smaller one. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

const swaggerUiDist = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const readAsset = (name: DocsAsset): Buffer => readFileSync(new URL(name, `file://${swaggerUiDist}`));

export interface ApiEmulator {
  url: string;
  close(): Promise<void>;
}

/**
 * A node:http stand-in for API Gateway: `/api/{operation}` becomes a REST proxy event for the
 * registry's handler, and the handler's result becomes the HTTP response, as in AWS.
 */
export async function startApiEmulator({ port, host = '127.0.0.1' }: { port: number; host?: string }): Promise<ApiEmulator> {
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const loadHandler = (name: string): Promise<LambdaHandler> => {
    let loaded = handlers.get(name);
    if (!loaded) {
      loaded = import(new URL(`../${handlerPath(name)}`, import.meta.url).href).then((module) => module.handler as LambdaHandler);
      handlers.set(name, loaded);
    }
    return loaded;
  };

  const server = createServer((req, res) => {
    serve(req, res, loadHandler).catch((error: unknown) => {
      console.error('api emulator: handler failed outside its middleware', error);
      send(res, envelopeResponse(502, {}, 'internal error'));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, loadHandler: (name: string) => Promise<LambdaHandler>) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  // The OpenAPI document (made at request time from the registry and the handlers' schemas) and the docs page.
  const docs = docsResponse({ method: req.method ?? 'GET', path: url.pathname, headers: flattenHeaders(req) }, { readAsset, document: openApiDocument });
  if (docs) return send(res, docs);
  const name = /^\/api\/([^/]+)\/?$/.exec(url.pathname)?.[1] ?? '';
  const operation = findOperation(name);
  if (!operation) return send(res, envelopeResponse(404, {}, 'unknown operation'));
  const body = await readBody(req);
  if (!body) return send(res, envelopeResponse(413, {}, 'request body too large'));

  const event = toApiGatewayEvent({
    method: req.method ?? 'GET',
    path: url.pathname,
    operation: operation.name,
    query: url.search.slice(1),
    headers: flattenHeaders(req),
    body,
    sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  });
  const handler = await loadHandler(operation.name);
  send(res, await handler(event, lambdaContext(operation.name, randomUUID())));
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i] as string] = req.rawHeaders[i + 1] as string;
  return headers;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  res.writeHead(result.statusCode, { ...result.headers, 'Content-Length': body.length } as Record<string, string | number>);
  res.end(body);
}
