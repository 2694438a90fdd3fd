/**
 * The API client: every call goes to /api/<operation> on the console's own origin with the signed-in person's bearer
 * token. Errors come back in the service's envelope; a 401 means the session is over.
 */
import { accessToken } from './auth.ts';

export class ApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

type Params = Record<string, string | number | undefined | null>;

const searchOf = (params: Params): URLSearchParams => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(name, String(value));
  return search;
};

let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

async function send<T>(operation: string, init: RequestInit, search = ''): Promise<T> {
  const token = accessToken();
  if (!token) {
    onSignedOut();
    throw new ApiError('you are signed out', 401);
  }
  const response = await fetch(`/api/${operation}${search ? `?${search}` : ''}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  const body = (await response.json().catch(() => ({ result: 'error', error_msg: `the service answered ${response.status}` }))) as T & {
    result?: string;
    error_msg?: string;
  };
  if (response.status === 401) onSignedOut();
  if (!response.ok || body.result === 'error')
    throw new ApiError(body.error_msg || `the service answered ${response.status}`, response.status);
  return body;
}

export const get = <T>(operation: string, params: Params = {}): Promise<T> =>
  send<T>(operation, { method: 'GET' }, searchOf(params).toString());

export const post = <T>(operation: string, params: Params = {}): Promise<T> =>
  send<T>(operation, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: searchOf(params).toString(),
  });
