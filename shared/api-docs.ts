/**
 * The interactive API reference: Swagger UI from the swagger-ui-dist package (no CDN, works offline) over
 * the OpenAPI document. The local server and the deployed stack's docs function both answer with these, so
 * /api/docs and /api/openapi.json are the same page and document everywhere. They are no operations of the
 * registry: no key, no envelope, GET only.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { OpenApiDocument } from './openapi.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** The files of swagger-ui-dist the page loads, by name and media type. */
export const DOCS_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

export type DocsAsset = keyof typeof DOCS_ASSETS;

/** validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io. */
const SWAGGER_UI_OPTIONS =
  "{ url: 'openapi.json', dom_id: '#reference', validatorUrl: null, tryItOutEnabled: true, persistAuthorization: true }";

/** Relative URLs, so the page works under any prefix (an API Gateway stage). */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Fleet Tracking API reference</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle(${SWAGGER_UI_OPTIONS});
  </script>
</body>
</html>
`;

const NO_STORE = { 'Cache-Control': 'no-cache' };

export interface DocsRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** the path before /api (an API Gateway stage, e.g. /v1), so the document names the URL clients call */
  basePath?: string;
}

/**
 * The answer for the document, the page or one of its assets; undefined for any other path. The document
 * names the server the request reached, with the scheme a proxy in front says it was reached by.
 */
export function docsResponse(
  { method, path, headers, basePath = '' }: DocsRequest,
  // The document is made by the caller: the local server makes it live, the deployed function reads the one made at synth.
  { readAsset, document }: { readAsset: (name: DocsAsset) => Buffer; document: (options: { serverUrl: string }) => OpenApiDocument },
): APIGatewayProxyResult | undefined {
  const asset = path.startsWith(`${DOCS_PATH}/`) ? path.slice(DOCS_PATH.length + 1) : undefined;
  const known = path === OPENAPI_PATH || path === DOCS_PATH || (asset !== undefined && asset in DOCS_ASSETS);
  if (!known) return undefined;
  if (method !== 'GET' && method !== 'HEAD')
    return { statusCode: 405, headers: { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' }, body: 'method not allowed, use GET' };
  if (path === OPENAPI_PATH) {
    const body = JSON.stringify(document({ serverUrl: serverUrlOf(headers, basePath) }), null, 2);
    return { statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE }, body };
  }
  if (path === DOCS_PATH) return { statusCode: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', ...NO_STORE }, body: PAGE };
  const name = asset as DocsAsset;
  return {
    statusCode: 200,
    headers: { 'Content-Type': DOCS_ASSETS[name], 'Cache-Control': 'public, max-age=86400' },
    body: readAsset(name).toString('utf8'),
  };
}

/** The origin the client used: X-Forwarded-Proto (set by API Gateway and most proxies), else http. */
export function serverUrlOf(headers: Record<string, string | undefined>, basePath = ''): string {
  const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const proto = header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
  return `${scheme}://${header('host') ?? 'localhost'}${basePath}`;
}
