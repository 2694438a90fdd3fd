import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ParsedBody } from '../contracts/request-body.ts';
import type { AuthenticatedUser } from '../domain/user.ts';

/** Per-request state the middlewares hand to each other (middy's request.internal). */
export interface RequestState extends Record<string, unknown> {
  /** query string merged with form or JSON-object body fields; body wins */
  params?: Record<string, unknown>;
  /** each source on its own, for the api key (which skips blank values source by source) */
  queryParams?: Record<string, unknown>;
  bodyParams?: Record<string, unknown>;
  /** a body that cannot be read as parameters; thrown after the api key check, so a keyless request still answers 401 */
  bodyError?: Error;
  body?: ParsedBody;
  user?: AuthenticatedUser;
  input?: unknown;
  /** a create's first answer, when this request repeats its Idempotency-Key and body */
  replay?: Record<string, unknown>;
}

export type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>;
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestState>;

/** Header lookup ignoring case, as API Gateway forwards headers as the client sent them. */
export function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}
