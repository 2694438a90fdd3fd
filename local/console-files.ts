/**
 * The console under npm start: /console/config.json from the environment, every other /console/ path a file of
 * console/dist/ (the build's output), and any path that names no file the page itself, so the console's own routes
 * (/console/callback, /console/trips…) load it. Every answer carries the security headers CloudFront adds when deployed,
 * its CSP allowing the basemaps configured here.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../shared/config.ts';
import {
  CONSOLE_CONFIG_PATH,
  CONSOLE_PATH,
  CONSOLE_SCOPES,
  type ConsoleConfig,
  consoleSecurityHeaders,
  FREE_MAP_STYLE,
} from '../shared/console/site.ts';

const DIST = fileURLToPath(new URL('../console/dist/', import.meta.url));

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pbf': 'application/x-protobuf',
};

const answer = (
  statusCode: number,
  body: Buffer | string,
  mediaType: string,
  extra: Record<string, string> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': mediaType, 'Cache-Control': 'no-cache', ...consoleSecurityHeaders(consoleConfig()), ...extra },
  body: Buffer.from(body).toString('base64'),
  isBase64Encoded: true,
});

/** The console's config: the issuer and client the API accepts tokens of (locally, the local provider's). */
export function consoleConfig(): ConsoleConfig {
  return {
    issuer: config.oidcIssuer() ?? '',
    clientId: config.oidcClientId(),
    scopes: CONSOLE_SCOPES,
    mapStyle: config.consoleMapStyle(),
    freeMapStyle: config.consoleFreeBasemap() ? FREE_MAP_STYLE : null,
  };
}

/** The answer for a /console path; undefined for any other path. */
export async function consoleResponse(method: string, path: string): Promise<APIGatewayProxyResult | undefined> {
  if (path === '/console') return answer(308, '', 'text/plain; charset=utf-8', { Location: CONSOLE_PATH });
  if (!path.startsWith(CONSOLE_PATH)) return undefined;
  if (method !== 'GET' && method !== 'HEAD') return answer(405, 'method not allowed', 'text/plain; charset=utf-8', { Allow: 'GET, HEAD' });
  if (path === CONSOLE_CONFIG_PATH) return answer(200, JSON.stringify(consoleConfig()), MEDIA_TYPES['.json'] as string);
  const file = fileOf(path.slice(CONSOLE_PATH.length));
  if (!file) return answer(404, 'not found', 'text/plain; charset=utf-8');
  const mediaType = MEDIA_TYPES[extname(file)];
  // A path with no known file type is one of the console's routes: the page, which reads its route from the URL.
  const served = mediaType ? await readFile(file).catch(() => undefined) : await readPage();
  if (served) return answer(200, served, mediaType ?? (MEDIA_TYPES['.html'] as string));
  if (!mediaType) return answer(503, 'the console is not built: npm run build:console', 'text/plain; charset=utf-8');
  return answer(404, 'not found', 'text/plain; charset=utf-8');
}

/** The file under console/dist/ a path names; undefined for a malformed path or one that leaves the folder. */
function fileOf(relative: string): string | undefined {
  try {
    const file = normalize(join(DIST, decodeURIComponent(relative) || 'index.html'));
    return file.startsWith(DIST) ? file : undefined;
  } catch {
    return undefined;
  }
}

const readPage = (): Promise<Buffer | undefined> => readFile(join(DIST, 'index.html')).catch(() => undefined);
