import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { DeviceTokenAuthState } from '../devices/device-token-auth.ts';
import type { ApiKeyAuthState } from './api-key-auth.ts';
import type { IdempotencyRequestState } from './idempotency.ts';
import type { ParsedRequestState } from './parse-request.ts';
import type { RateLimitState } from './rate-limit.ts';
import type { ValidatedInputState } from './validate-input.ts';

/** Per-request state the middlewares hand to each other (middy's request.internal): what each one declares it puts there. */
export type RequestState = ParsedRequestState &
  ApiKeyAuthState &
  RateLimitState &
  ValidatedInputState &
  IdempotencyRequestState &
  DeviceTokenAuthState;

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
