/**
 * What the console's pages are served with, the same under npm start (local/console-files.ts) and behind CloudFront
 * (infra/api/console-site.ts's response headers policy): a strict Content-Security-Policy (no inline script, no third-party
 * origin; the map's worker is the CSP build's own file, so no blob: worker), no MIME sniffing, no Referer (a page URL
 * must never carry anything to another origin), and no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // blob: and data: for the map canvas's images (MapLibre decodes tiles and sprites into blob: URLs)
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const CONSOLE_SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const;

/** Where the console lives on the service's origin, and the path its config is read from. */
export const CONSOLE_PATH = '/console/';
export const CONSOLE_CONFIG_PATH = '/console/config.json';

/** The console's public OIDC client: authorization code with PKCE, no secret. */
export const CONSOLE_CLIENT_ID = 'fleet-console';
export const CONSOLE_SCOPES = 'openid email';

/** What /console/config.json holds: where people sign in, and the basemap (null: the offline style). */
export interface ConsoleConfig {
  issuer: string;
  clientId: string;
  scopes: string;
  mapStyle: string | null;
}
