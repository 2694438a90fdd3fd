/**
 * What the middlewares hand to each other (middy's request.internal), each part under the middleware that writes it,
 * and how a later one reads it. Every middleware imports this file, and none another for what it found (only the
 * envelope's one writer, envelopeResponse, is shared): the chain's order is operation.ts's and device-endpoint.ts's
 * to decide, never a middleware's.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { JsonBody } from '../contracts/operation.ts';
import type { ParsedBody } from '../contracts/request-body.ts';
import type { Allowance } from '../domain/token-bucket.ts';
import type { AuthenticatedUser, SignedInAs } from '../domain/user.ts';
import type { BadRequest } from '../errors.ts';
import type { IdempotencyScope } from '../store/idempotency.ts';

/** How parseRequest and idempotency read a body: as parameters, or (`payload`) as a document of its own. */
export interface ParseRequestOptions {
  jsonBody?: JsonBody | undefined;
}

/** parseRequest's. */
export type ParsedRequestState = {
  /** query string merged with form or JSON-object body fields; body wins */
  params?: Record<string, unknown>;
  /** each source on its own, for the api key (which skips blank values source by source) */
  queryParams?: Record<string, unknown>;
  bodyParams?: Record<string, unknown>;
  /** a body that cannot be read as parameters; thrown after the api key check, so a keyless request still answers 401 */
  bodyError?: BadRequest;
  body?: ParsedBody;
};

/** apiKeyAuth's, the one credentials step: both set once the presented key is found and unlocked, or the token verified. */
export type ApiKeyAuthState = {
  user?: AuthenticatedUser;
  /** the person a bearer token signed in (absent for an api key) */
  person?: SignedInAs;
  /**
   * the presented key's SHA-256, hashed once for every later middleware, or for a bearer token its person's (issuer and
   * subject): the rate limit's bucket is named by it, one per key and one per person
   */
  credentialHash?: string;
};

/** What taking one request from a bucket came to: an allowance, or the store's error, kept for the chain to answer. */
type Taken = { allowance: Allowance } | { error: unknown };

/** the rate limit's (and a device endpoint's, which takes its buckets in its handler), for the RateLimit headers. */
export type RateLimitState = { rateLimitTaken?: Promise<Taken> };

/** validateInput's: the operation's input, as its schema's output. */
export type ValidatedInputState = { input?: unknown };

/** idempotency's: the claim to complete or release, or the first answer to repeat. */
export type IdempotencyRequestState = {
  idempotency?: { scope: IdempotencyScope; fingerprint: string; created?: boolean };
  /** a create's first answer, when this request repeats its Idempotency-Key and body */
  replay?: Record<string, unknown>;
};

/** deviceTokenAuth's: the token's user and its hash (its bucket's name), for the device endpoint's handler. */
export type DeviceTokenAuthState = { deviceUserUid?: number; deviceTokenHash?: string };

export type RequestState = ParsedRequestState &
  ApiKeyAuthState &
  RateLimitState &
  ValidatedInputState &
  IdempotencyRequestState &
  DeviceTokenAuthState;

export type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>;
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>;

/** The user apiKeyAuth found, for the middlewares and the handler after it in the chain. */
export function authenticatedUser(request: HttpRequest): AuthenticatedUser {
  const { user } = request.internal;
  if (!user) throw new Error('no authenticated user: apiKeyAuth must run before this middleware');
  return user;
}

/** The device token's user, for the device endpoint's handler. */
export function tokenUserOf(request: HttpRequest): number {
  const { deviceUserUid } = request.internal;
  if (deviceUserUid === undefined) throw new Error('no device user: deviceTokenAuth must run before the handler');
  return deviceUserUid;
}

/** Header lookup ignoring case, as API Gateway forwards headers as the client sent them. */
export function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}
