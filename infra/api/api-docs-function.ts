/**
 * The deployed stack's docs function: GET /api/docs (the Swagger UI page), its assets and /api/openapi.json.
 * The document is the one made from the registry at synth; the bundle carries it and Swagger UI's files
 * (see ApiDocsSite), so nothing is fetched from anywhere at run time.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type DocsAsset, docsResponse } from '../../shared/api-docs.ts';
import type { OpenApiDocument } from '../../shared/openapi.ts';

const bundled = (name: string): Buffer => readFileSync(new URL(name, import.meta.url));

let document: OpenApiDocument | undefined;
const synthesized = (): OpenApiDocument => (document ??= JSON.parse(bundled('openapi.json').toString('utf8')) as OpenApiDocument);

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const answer = docsResponse(
    { method: event.httpMethod, path: event.path, headers: event.headers ?? {}, basePath: `/${event.requestContext.stage}` },
    { readAsset: (name: DocsAsset) => bundled(name), document: ({ serverUrl }) => ({ ...synthesized(), servers: [{ url: serverUrl }] }) },
  );
  return answer ?? { statusCode: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'not found' };
}
