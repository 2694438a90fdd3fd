/**
 * Sign-in with OpenID Connect, authorization code + PKCE (oauth4webapi). The tokens live in this tab's sessionStorage
 * only: never in a URL, localStorage or a log. The issuer and client come from /console/config.json.
 */
import * as oauth from 'oauth4webapi';
import type { ConsoleConfig } from '../../shared/console/site.ts';

const SESSION_KEY = 'fleet-console.session';
const PENDING_KEY = 'fleet-console.pending-sign-in';

interface Session {
  accessToken: string;
  idToken?: string;
  expiresAt: number;
}

let config: ConsoleConfig | undefined;

export async function loadConfig(): Promise<ConsoleConfig> {
  if (config) return config;
  const response = await fetch('/console/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`the console's settings could not be read (${response.status})`);
  config = (await response.json()) as ConsoleConfig;
  return config;
}

const callbackUrl = (): string => new URL('/console/callback', location.origin).href;
const homeUrl = (): string => new URL('/console/', location.origin).href;

/** The local provider answers on 127.0.0.1 over http; a deployed issuer is https. */
const insecureIfLocal = (settings: ConsoleConfig) =>
  new URL(settings.issuer).protocol === 'http:' ? { [oauth.allowInsecureRequests]: true as const } : {};

async function discover(settings: ConsoleConfig): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecureIfLocal(settings) }));
}

export function accessToken(): string | undefined {
  const kept = sessionStorage.getItem(SESSION_KEY);
  if (!kept) return undefined;
  const session = JSON.parse(kept) as Session;
  if (session.expiresAt <= Date.now()) {
    sessionStorage.removeItem(SESSION_KEY);
    return undefined;
  }
  return session.accessToken;
}

export async function signIn(): Promise<void> {
  const settings = await loadConfig();
  const server = await discover(settings);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, back: location.hash }));
  const url = new URL(server.authorization_endpoint ?? '');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', callbackUrl());
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', settings.scopes);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  location.assign(url.href);
}

/** Back from the issuer: trades the code for tokens, then leaves the callback URL (the code never stays in history). */
export async function completeSignIn(): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string; back: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (!pending) throw new Error('this sign-in was not started here: sign in again');
  const settings = await loadConfig();
  const server = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const params = oauth.validateAuthResponse(server, client, new URL(location.href), pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    params,
    callbackUrl(),
    pending.verifier,
    insecureIfLocal(settings),
  );
  const result = await oauth.processAuthorizationCodeResponse(server, client, response);
  const session: Session = {
    accessToken: result.access_token,
    ...(result.id_token ? { idToken: result.id_token } : {}),
    expiresAt: Date.now() + (result.expires_in ?? 3600) * 1000,
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  history.replaceState(null, '', homeUrl() + (pending.back || '#/map'));
  return pending.back || '#/map';
}

export async function signOut(): Promise<void> {
  const kept = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
  sessionStorage.removeItem(SESSION_KEY);
  const settings = await loadConfig();
  const server = await discover(settings).catch(() => undefined);
  if (!server?.end_session_endpoint) {
    location.assign(homeUrl());
    return;
  }
  const url = new URL(server.end_session_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('post_logout_redirect_uri', homeUrl());
  if (kept?.idToken) url.searchParams.set('id_token_hint', kept.idToken);
  location.assign(url.href);
}
