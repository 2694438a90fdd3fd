/**
 * A signed-in person's access token (docs/console.md): a JWT verified with aws-jwt-verify against its issuer's keys
 * (fetched once from its JWKS and kept in memory) for this API: Cognito's carry the console's client_id and
 * token_use `access`; any other issuer's carry the API as their `aud`. Verified, it names the person by issuer and sub.
 */
import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config, limits } from '../config.ts';
import { Unauthorized } from '../errors.ts';

export interface SignedInPerson {
  issuer: string;
  subject: string;
}

type Verify = (token: string) => Promise<{ iss?: string; sub?: string }>;

const COGNITO_ISSUER = /^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/([A-Za-z0-9-]+_[A-Za-z0-9]+)$/;

/**
 * JWKS over fetch: aws-jwt-verify's own fetcher speaks https only, and the local provider is http on 127.0.0.1. Bounded
 * as every AWS call is, so an issuer that hangs answers 401 well inside the function's timeout.
 */
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

/** The verifier the settings ask for; undefined when no issuer is set (no bearer token is then accepted). */
function verifierOf(issuer: string | undefined): Verify | undefined {
  if (!issuer) return undefined;
  const userPoolId = COGNITO_ISSUER.exec(issuer)?.[1];
  if (userPoolId) {
    const cognito = CognitoJwtVerifier.create(
      { userPoolId, tokenUse: 'access', clientId: config.oidcClientId() },
      { jwksCache: jwksCache() },
    );
    return (token) => cognito.verify(token);
  }
  const audience = config.oidcAudience();
  if (!audience) return undefined;
  const other = JwtVerifier.create(
    { issuer, audience, jwksUri: config.oidcJwksUri() ?? `${issuer}/.well-known/jwks.json` },
    { jwksCache: jwksCache() },
  );
  return (token) => other.verify(token);
}

/** One verifier per container (its JWKS cached with it), made at the first token, never at module init. */
interface IssuerVerifier {
  issuer: string | undefined;
  verify: Verify | undefined;
}
let verifier: IssuerVerifier | undefined;

/** The person the token names, or Unauthorized saying why not (never the token itself). */
export async function verifyAccessToken(token: string): Promise<SignedInPerson> {
  const issuer = config.oidcIssuer();
  const current: IssuerVerifier = verifier !== undefined && verifier.issuer === issuer ? verifier : { issuer, verify: verifierOf(issuer) };
  verifier = current;
  const { verify } = current;
  if (!verify) throw new Unauthorized('sign-in is not configured: no access token is accepted');
  const claims = await verify(token).catch((error: unknown) => {
    throw new Unauthorized(error instanceof JwtExpiredError ? 'access token expired' : 'access token invalid');
  });
  if (!claims.iss || !claims.sub) throw new Unauthorized('access token invalid');
  return { issuer: claims.iss, subject: claims.sub };
}
