import { MethodNotAllowed } from '../errors.ts';
import type { HttpMethod } from '../operations.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/** Every resource accepts ANY method so that a wrong one gets the spec's message, not a gateway 403. */
export const methodGuard = (allowed: HttpMethod | readonly HttpMethod[]): HttpMiddleware => {
  const methods: readonly string[] = typeof allowed === 'string' ? [allowed] : allowed;
  const methodGuardBefore = (request: HttpRequest): void => {
    if (!methods.includes(request.event.httpMethod?.toUpperCase() ?? '')) {
      throw new MethodNotAllowed(`method not allowed, use ${methods.join(' or ')}`);
    }
  };
  return { name: 'methodGuard', before: methodGuardBefore };
};
