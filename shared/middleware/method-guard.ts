import type { HttpMethod } from '../contracts/operation.ts';
import { MethodNotAllowed } from '../errors.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/** Every resource accepts ANY method so that a wrong one gets the spec's message, not a gateway 403. */
export const methodGuard = (allowed: HttpMethod): HttpMiddleware => {
  const methodGuardBefore = (request: HttpRequest): void => {
    if (request.event.httpMethod?.toUpperCase() !== allowed) {
      throw new MethodNotAllowed(`method not allowed, use ${allowed}`);
    }
  };
  return { name: 'methodGuard', before: methodGuardBefore };
};
