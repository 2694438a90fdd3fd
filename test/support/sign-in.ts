/**
 * A person signing in to the local provider as the console does, in code: oauth4webapi's authorization code with
 * PKCE (S256), the provider's sign-in form filled in and posted over fetch (a cookie jar of its own), the code
 * exchanged for tokens. No browser.
 */
import * as oauth from 'oauth4webapi';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPES } from '../../shared/console/site.ts';
import { givenUser, type TestUser } from './builders.ts';

const insecure = { [oauth.allowInsecureRequests]: true };

export interface SignedIn {
  accessToken: string;
  idToken: string | undefined;
}

/** Cookies by name, as a browser keeps them for one origin. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

export interface SignInAttempt {
  /** the last answer: the sign-in page again when the password was wrong */
  response: Response;
  /** the console's callback URL the provider sent the browser to, when it did */
  callback: URL | undefined;
}

/** The browser's part: the authorization request, the form posted, every redirect followed up to the console's callback. */
export async function authorize(base: string, authorizationUrl: URL, email: string, password: string): Promise<SignInAttempt> {
  const jar = cookieJar();
  const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header() } });
    jar.keep(response);
    return response;
  };
  let response = await go(authorizationUrl.href);
  const callbackPrefix = `${base}/console/callback`;
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, base);
      if (next.href.startsWith(callbackPrefix)) return { response, callback: next };
      response = await go(next.href);
      continue;
    }
    const form = /<form method="post" action="([^"]+)"/.exec(await response.clone().text());
    if (!form?.[1] || response.status !== 200) return { response, callback: undefined };
    response = await go(new URL(form[1], base).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    if (response.status !== 303 && response.status !== 302) return { response, callback: undefined };
  }
  throw new Error('sign-in did not reach the console callback in 10 steps');
}

/** A whole sign-in against the service at `base` (its provider at /oidc): the tokens, or an error saying where it stopped. */
export async function signIn(base: string, email: string, password: string): Promise<SignedIn> {
  const issuer = new URL(`${base}/oidc`);
  const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client: oauth.Client = { client_id: CONSOLE_CLIENT_ID };
  const redirectUri = `${base}/console/callback`;
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorizationUrl = new URL(String(server.authorization_endpoint));
  for (const [name, value] of Object.entries({
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: CONSOLE_SCOPES,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
  }))
    authorizationUrl.searchParams.set(name, value);
  const { callback, response } = await authorize(base, authorizationUrl, email, password);
  if (!callback) throw new Error(`sign-in stopped with ${response.status}`);
  const params = oauth.validateAuthResponse(server, client, callback, state);
  const answer = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), params, redirectUri, codeVerifier, insecure);
  const tokens = await oauth.processAuthorizationCodeResponse(server, client, answer);
  return { accessToken: tokens.access_token, idToken: tokens.id_token };
}

let people = 0;

/** A user with a local sign-in at the service at `base`: its address, password, and a fresh access token. */
export async function givenSignedInPerson(
  base: string,
  user: { userUid: number },
): Promise<SignedIn & { email: string; password: string }> {
  const { createLocalAccount } = await import('../../local/oidc/accounts.ts');
  const email = `person-${user.userUid}-${++people}-${process.pid}@fleet.example`;
  const { password } = await createLocalAccount(user.userUid, email, `${base}/oidc`);
  return { email, password, ...(await signIn(base, email, password)) };
}

/** A user of the stack at `base`, signed in: their api key (as givenUser makes it) and their person's access token. */
export async function givenSignedInUser(base: string): Promise<TestUser & { token: string }> {
  const user = await givenUser({ gmtOffsetMinutes: 120 });
  return { ...user, token: (await givenSignedInPerson(base, user)).accessToken };
}

export const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
