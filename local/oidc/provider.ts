/**
 * The local OpenID provider npm start runs (oidc-provider, mounted at /oidc on the API's origin): the console's public
 * client `fleet-console` signs people in with the authorization code and PKCE (S256) only, and gets a JWT access token
 * whose audience is the API (resource indicators), signed with a key made at start. People sign in with the e-mail and
 * password `npm run admin -- user create --email` gave them (the table's LOGIN item, scrypt). In AWS, Cognito does this.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type Interaction } from 'oidc-provider';
import { config } from '../../shared/config.ts';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPES, consoleSecurityHeaders } from '../../shared/console/site.ts';
import { findLocalLogin, findPerson } from '../../shared/store/people.ts';
import { loginPage, messagePage } from './pages.ts';
import { passwordMatches } from './passwords.ts';

export const OIDC_PATH = '/oidc';
const INTERACTION_PATH = `${OIDC_PATH}/interaction/`;

export interface LocalOidcProvider {
  issuer: string;
  /** the `aud` of its access tokens: the API */
  audience: string;
  /** answers a request under /oidc; false for any other path */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

/** A provider for the service at `base` (http://host:port). */
export function localOidcProvider(base: string): LocalOidcProvider {
  const issuer = `${base}${OIDC_PATH}`;
  const audience = `${base}/api`;
  const provider = new Provider(issuer, providerConfiguration(base, audience));
  const callback = provider.callback();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (path !== OIDC_PATH && !path.startsWith(`${OIDC_PATH}/`)) return false;
    for (const [name, value] of Object.entries(consoleSecurityHeaders())) res.setHeader(name, value);
    if (path.startsWith(INTERACTION_PATH)) {
      await interaction(provider, req, res);
      return true;
    }
    // Mounted: oidc-provider reads its mount path from originalUrl less url.
    Object.assign(req, { originalUrl: req.url, url: (req.url ?? '/').slice(OIDC_PATH.length) || '/' });
    callback(req, res);
    return true;
  };
  return { issuer, audience, handle };
}

function providerConfiguration(base: string, audience: string): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
  return {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${base}/console/callback`],
        post_logout_redirect_uris: [`${base}/console/`],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: CONSOLE_SCOPES.split(' '),
    // Only the code flow with S256: oidc-provider requires PKCE of public clients and allows S256 alone.
    responseTypes: ['code'],
    findAccount: async (_ctx: unknown, subject: string) => {
      const person = await findPerson(`${base}${OIDC_PATH}`, subject);
      return person && { accountId: subject, claims: async () => ({ sub: subject, email: person.person.email, email_verified: true }) };
    },
    interactions: { url: async (_ctx: unknown, interaction: Interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    // The console is the service's own client: signing in is consent, so its grant is made, never asked for.
    loadExistingGrant: async (ctx: GrantContext) => {
      const { client, session, provider } = ctx.oidc;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(CONSOLE_SCOPES);
      grant.addResourceScope(audience, CONSOLE_SCOPES);
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({
          scope: CONSOLE_SCOPES,
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: config.oidcAccessTokenTtlS(),
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    renderError: async (ctx: PageContext, out: { error?: string; error_description?: string }) => {
      ctx.type = 'html';
      ctx.body = messagePage('Sign-in failed', out.error_description ?? out.error ?? 'something went wrong');
    },
  };
}

interface GrantContext {
  oidc: {
    client: { clientId: string };
    session: { accountId: string; grantIdFor(clientId: string): string | undefined };
    provider: Provider;
  };
}

interface PageContext {
  type: string;
  body: string;
}

/** The sign-out confirmation: a form posting the provider's own (no script submits it). */
async function logoutSource(ctx: PageContext, form: string): Promise<void> {
  ctx.type = 'html';
  ctx.body = messagePage(
    'Sign out',
    'Sign out of the fleet console?',
    form.replace('</form>', '<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></form>'),
  );
}

async function postLogoutSuccessSource(ctx: PageContext): Promise<void> {
  ctx.type = 'html';
  ctx.body = messagePage('Signed out', 'You are signed out.');
}

/** The sign-in page (GET) and its form's answer (POST): a wrong address or password shows the form again. */
async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res).catch(() => undefined);
  if (!details) return sendPage(res, 400, messagePage('Sign-in expired', 'This sign-in has expired: start again from the console.'));
  if (req.method !== 'POST') return sendPage(res, 200, loginPage(details.uid));
  const form = new URLSearchParams(await readForm(req));
  const email = form.get('email')?.trim() ?? '';
  const subject = await verifiedSubject(email, form.get('password') ?? '');
  if (!subject) return sendPage(res, 401, loginPage(details.uid, { email, error: 'Wrong e-mail address or password.' }));
  await provider.interactionFinished(req, res, { login: { accountId: subject } }, { mergeWithLastSubmission: false });
}

async function verifiedSubject(email: string, password: string): Promise<string | undefined> {
  if (email === '' || email.length > 254 || password.length > 1024) return undefined;
  const login = await findLocalLogin(email);
  return login && (await passwordMatches(password, login.passwordHash)) ? login.subject : undefined;
}

async function readForm(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 8192) break;
  }
  return text;
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}
