/**
 * What the console's pages are served with, the same under npm start (local/console-files.ts) and behind CloudFront
 * (infra/api/console-site.ts's response headers policy): a strict Content-Security-Policy (no inline script, no third-party
 * script; the map's worker is the CSP build's own file, so no blob: worker), no MIME sniffing, no Referer (a page URL
 * must never carry anything to another origin), and no framing. The one origin beyond the console's own it may reach is
 * a basemap's the console is configured with: MapLibre fetches a style, its tiles, glyphs and sprites (connect-src) and
 * decodes raster tiles and sprites as images (img-src). Amazon Location's and OpenFreeMap's styles keep all of those on
 * the style's own origin.
 */
export function consoleCsp(basemaps: ConsoleBasemaps = NO_BASEMAPS): string {
  const origins = basemapOrigins(basemaps);
  const extended = origins.length > 0 ? ` ${origins.join(' ')}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // blob: and data: for the map canvas's images (MapLibre decodes tiles and sprites into blob: URLs)
    `img-src 'self' data: blob:${extended}`,
    `connect-src 'self'${extended}`,
    "worker-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function consoleSecurityHeaders(basemaps: ConsoleBasemaps = NO_BASEMAPS): Record<string, string> {
  return {
    'Content-Security-Policy': consoleCsp(basemaps),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
}

/** The basemaps a console is configured with beyond its offline one: style URLs, null when not offered. */
export type ConsoleBasemaps = Pick<ConsoleConfig, 'mapStyle' | 'freeMapStyle'>;
const NO_BASEMAPS: ConsoleBasemaps = { mapStyle: null, freeMapStyle: null };

/** OpenFreeMap's Liberty style: free, no key, its tiles, glyphs and sprites on its own origin. */
export const FREE_MAP_STYLE = 'https://tiles.openfreemap.org/styles/liberty';

/** The distinct origins of the configured styles; a style URL that is not http(s) is a configuration error. */
function basemapOrigins({ mapStyle, freeMapStyle }: ConsoleBasemaps): string[] {
  const origins = [mapStyle, freeMapStyle].flatMap((style) => (style ? [originOf(style)] : []));
  return [...new Set(origins)];
}

function originOf(style: string): string {
  const url = URL.parse(style);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new Error(`the console's map style must be an http(s) URL, not ${JSON.stringify(style)}`);
  return url.origin;
}

/** Where the console lives on the service's origin, and the path its config is read from. */
export const CONSOLE_PATH = '/console/';
export const CONSOLE_CONFIG_PATH = '/console/config.json';

/** The console's public OIDC client: authorization code with PKCE, no secret. */
export const CONSOLE_CLIENT_ID = 'fleet-console';
export const CONSOLE_SCOPES = 'openid email';

/**
 * What /console/config.json holds: where people sign in, and the basemaps beside the offline one: the configured style
 * (Amazon Location's; null: the offline style is the default) and the free vector style when offered (null: not offered).
 */
export interface ConsoleConfig {
  issuer: string;
  clientId: string;
  scopes: string;
  mapStyle: string | null;
  freeMapStyle: string | null;
}
