/** The envelope matchers every project's tests use: `toBeError` and `toBeSuccess`. */
import { expect } from 'vitest';
import type { ApiResponse } from './api.ts';

interface EnvelopeMatchers<R> {
  /** a JSON envelope with result "error", this status and exactly this error_msg, and nothing else */
  toBeError(status: number, message: string): R;
  /** a 200 JSON envelope with result "success" and an empty error_msg */
  toBeSuccess(): R;
}

declare module 'vitest' {
  interface Assertion<T = any> extends EnvelopeMatchers<void | Promise<void>> {}
}

expect.extend({
  toBeError(received: ApiResponse, status: number, message: string) {
    const expected = { version: '1', result: 'error', error_msg: message };
    const pass = received.status === status && received.contentType.startsWith('application/json') && this.equals(received.body, expected);
    return {
      pass,
      message: () =>
        `expected ${status} ${JSON.stringify(expected)}, got ${received.status} ${received.contentType} ${JSON.stringify(received.body)}`,
    };
  },
  toBeSuccess(received: ApiResponse) {
    const body = received.body as Record<string, unknown>;
    const pass =
      received.status === 200 &&
      received.contentType.startsWith('application/json') &&
      body?.version === '1' &&
      body?.result === 'success' &&
      body?.error_msg === '';
    return { pass, message: () => `expected a success envelope, got ${received.status} ${JSON.stringify(received.body)}` };
  },
});
