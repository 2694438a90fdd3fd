import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { MethodNotAllowed } from '../../shared/errors.ts';
import { methodGuard } from '../../shared/middleware/method-guard.ts';
import { aContext, anEvent } from '../support/events.ts';

const guarded = (allowed: 'GET' | 'POST') =>
  middy()
    .use(methodGuard(allowed))
    .handler(async () => 'ran');

describe('methodGuard', () => {
  it('lets the allowed method through', async () => {
    await expect(guarded('POST')(anEvent({ method: 'POST' }), aContext())).resolves.toBe('ran');
    await expect(guarded('GET')(anEvent({ method: 'GET' }), aContext())).resolves.toBe('ran');
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('refuses %s on a POST operation with the spec message', async (method) => {
    await expect(guarded('POST')(anEvent({ method }), aContext())).rejects.toEqual(new MethodNotAllowed('method not allowed, use POST'));
  });

  it('refuses POST on a read operation', async () => {
    await expect(guarded('GET')(anEvent({ method: 'POST' }), aContext())).rejects.toEqual(
      new MethodNotAllowed('method not allowed, use GET'),
    );
  });
});
