/**
 * What API Gateway answers itself, in the service's envelope: the stack configures these gateway responses
 * (gateway-responses.ts) and the local emulator answers the same statuses and bodies, so a limit looks the same
 * in both. No CDK import here: the emulator reads this table too.
 */
import { API_VERSION } from '../../shared/contracts/envelope.ts';

export interface GatewayAnswer {
  /** API Gateway's response type */
  type: string;
  /** undefined keeps the status API Gateway chose (a failed Lambda's 502) */
  status: number | undefined;
  message: string;
  /** headers beyond Content-Type */
  headers?: Readonly<Record<string, string>>;
}

export const gatewayAnswers = {
  // An unknown /api/<name> has no resource, which API Gateway reports as a missing token.
  UnknownOperation: { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, message: 'unknown operation' },
  // Every 429 says when to come back, as the functions' own do (docs/operations.md, "Scaling").
  Throttled: { type: 'THROTTLED', status: 429, message: 'request throttled, retry later', headers: { 'Retry-After': '1' } },
  TooLarge: { type: 'REQUEST_TOO_LARGE', status: 413, message: 'request body too large' },
  // The integration's 29 s passed (infra/config limits.integrationTimeoutSeconds).
  Timeout: { type: 'INTEGRATION_TIMEOUT', status: 504, message: 'request timed out' },
  Default4xx: { type: 'DEFAULT_4XX', status: 400, message: 'bad request' },
  // No status of its own: a Lambda that timed out, crashed or answered over its 6 MB keeps API Gateway's 502.
  Default5xx: { type: 'DEFAULT_5XX', status: undefined, message: 'internal error' },
} as const satisfies Record<string, GatewayAnswer>;

/** The body API Gateway sends for a gateway response: the envelope's error fields. */
export const gatewayAnswerBody = (answer: GatewayAnswer): string =>
  JSON.stringify({ version: API_VERSION, result: 'error', error_msg: answer.message });
