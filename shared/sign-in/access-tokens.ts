/**
 * A signed-in person's access token (docs/console.md): a JWT verified with aws-jwt-verify against its issuer's keys
 * (fetched once from its JWKS and kept in memory) for this API: Cognito's carry the console's client_id and
 * token_use `access`; any other issuer's carry the API as their `aud`. Verified, it names the person by issuer and sub.
 */
import { config, limits } from '../config.ts';
import { Unauthorized } from '../errors.ts';

export interface SignedInPerson {
  issuer: string;
  subject: string;
  /** when the token expires (ms since the epoch), when it says */
  expiresAt?: number;
}

/** The token's claims once its signature, issuer, audience and expiry check out, else Unauthorized saying why. */
type Verify = (token: string) => Promise<{ iss?: string; sub?: string; exp?: number }>;

const COGNITO_ISSUER = /^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/([A-Za-z0-9-]+_[A-Za-z0-9]+)$/;

/**
 * The verifier the settings ask for; undefined when no issuer is set (no bearer token is then accepted). aws-jwt-verify
 * is imported here, at the first token: most calls carry an api key, so it is no part of module init.
 */
async function verifierOf(issuer: string | undefined): Promise<Verify | undefined> {
  if (!issuer) return undefined;
  const [{ CognitoJwtVerifier, JwtVerifier }, { SimpleJwksCache }, { JwtExpiredError }] = await Promise.all([
    import('aws-jwt-verify'),
    import('aws-jwt-verify/jwk'),
    import('aws-jwt-verify/error'),
  ]);
  // JWKS over fetch: aws-jwt-verify's own fetcher speaks https only, and the local provider is http on 127.0.0.1. Bounded
  // as every AWS call is, so an issuer that hangs answers 401 well inside the function's timeout.
  const jwksCache = () =>
    new SimpleJwksCache({
      fetcher: {
        fetch: async (uri) => {
          const response = await fetch(uri, { signal: AbortSignal.timeout(limits.awsRequestTimeoutMs) });
          if (!response.ok) throw new Error(`the issuer's JWKS answered ${response.status}`);
          return response.arrayBuffer();
        },
      },
    });
  const refusing =
    (verify: Verify): Verify =>
    (token) =>
      verify(token).catch((error: unknown) => {
        throw new Unauthorized(error instanceof JwtExpiredError ? 'access token expired' : 'access token invalid');
      });
  const userPoolId = COGNITO_ISSUER.exec(issuer)?.[1];
  if (userPoolId) {
    const cognito = CognitoJwtVerifier.create(
      { userPoolId, tokenUse: 'access', clientId: config.oidcClientId() },
      { jwksCache: jwksCache() },
    );
    return refusing((token) => cognito.verify(token));
  }
  const audience = config.oidcAudience();
  if (!audience) return undefined;
  const other = JwtVerifier.create(
    { issuer, audience, jwksUri: config.oidcJwksUri() ?? `${issuer}/.well-known/jwks.json` },
    { jwksCache: jwksCache() },
  );
  return refusing((token) => other.verify(token));
}

/** One verifier per container (its JWKS cached with it), made at the first token, never at module init. */
interface IssuerVerifier {
  issuer: string | undefined;
  verify: Promise<Verify | undefined>;
}
let verifier: IssuerVerifier | undefined;

/** The person the token names, or Unauthorized saying why not (never the token itself). */
export async function verifyAccessToken(token: string): Promise<SignedInPerson> {
  const issuer = config.oidcIssuer();
  const current: IssuerVerifier = verifier !== undefined && verifier.issuer === issuer ? verifier : { issuer, verify: verifierOf(issuer) };
  verifier = current;
  const verify = await current.verify;
  if (!verify) throw new Unauthorized('sign-in is not configured: no access token is accepted');
  const claims = await verify(token);
  if (!claims.iss || !claims.sub) throw new Unauthorized('access token invalid');
  return { issuer: claims.iss, subject: claims.sub, ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp * 1000 } : {}) };
}
