import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type * as v from 'valibot';
import { inject } from 'vitest';
import { findOperation, type OperationName, type operations } from '../../functions/registry.ts';
import type { OutputSchema } from '../../shared/contracts/operation.ts';

export interface ApiResponse<T = any> {
  status: number;
  contentType: string;
  headers: Headers;
  body: T;
  /** the body as sent, decoded from its Content-Encoding */
  raw: Buffer;
  /** set when the request named its Accept-Encoding (sent over node:http): the bytes on the wire */
  wireBytes?: number;
}

type Params = Record<string, string | number | undefined>;

interface CallOptions {
  headers?: Record<string, string>;
  /** send the body as JSON instead of a form */
  json?: boolean;
  /** send exactly this body (with the content type given in headers) */
  rawBody?: string | Buffer;
  query?: Params;
}

const toSearch = (params: Params = {}): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, String(value));
  return search.toString();
};

/** One HTTP call, its JSON body parsed. */
export async function call(method: string, url: string, init: { headers: Record<string, string>; body?: string | Buffer }) {
  if (Object.keys(init.headers).some((name) => name.toLowerCase() === 'accept-encoding')) return callNamingEncoding(method, url, init);
  const response = await fetch(url, { method, headers: init.headers, body: init.body });
  const raw = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? '';
  const body = contentType.startsWith('application/json') ? JSON.parse(raw.toString('utf8')) : raw;
  return { status: response.status, contentType, headers: response.headers, body, raw } satisfies ApiResponse;
}

/**
 * fetch always asks for gzip and decodes it, whatever Accept-Encoding a test sets: a request that names its own goes over
 * node:http, and the answer keeps its headers and wire size.
 */
function callNamingEncoding(method: string, url: string, init: { headers: Record<string, string>; body?: string | Buffer }) {
  return new Promise<ApiResponse>((resolve, reject) => {
    const outgoing = request(url, { method, headers: init.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const wire = Buffer.concat(chunks);
        const raw = response.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire;
        const contentType = response.headers['content-type'] ?? '';
        const body = contentType.startsWith('application/json') ? JSON.parse(raw.toString('utf8')) : raw;
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const item of [value ?? []].flat()) headers.append(name, item);
        }
        resolve({ status: response.statusCode ?? 0, contentType, body, raw, headers, wireBytes: wire.length });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** The service as an integrator calls it: real HTTP against a local API emulator (by default the run's shared one). */
export const createApi = (baseUrl: () => string) => ({
  get(operation: string, params: Params = {}, options: CallOptions = {}): Promise<ApiResponse> {
    const query = toSearch(params);
    return call('GET', `${baseUrl()}/api/${operation}${query ? `?${query}` : ''}`, {
      headers: { Accept: 'application/json', ...options.headers },
    });
  },

  post(operation: string, params: Params = {}, options: CallOptions = {}): Promise<ApiResponse> {
    const query = toSearch(options.query);
    const url = `${baseUrl()}/api/${operation}${query ? `?${query}` : ''}`;
    if (options.rawBody !== undefined) {
      return call('POST', url, { headers: { Accept: 'application/json', ...options.headers }, body: options.rawBody });
    }
    const body = options.json ? JSON.stringify(params) : toSearch(params);
    const contentType = options.json ? 'application/json' : 'application/x-www-form-urlencoded';
    return call('POST', url, { headers: { Accept: 'application/json', 'Content-Type': contentType, ...options.headers }, body });
  },

  /** an operation with the method its declaration says, the answer typed from its output schema */
  operation<N extends OperationName>(name: N, params: Params = {}, options: CallOptions = {}): Promise<ApiResponse<AnswerOf<N>>> {
    return findOperation(name)?.method === 'GET' ? this.get(name, params, options) : this.post(name, params, options);
  },

  /** any method, for the method guard */
  request(method: string, operation: string, params: Params = {}): Promise<ApiResponse> {
    const query = toSearch(params);
    return call(method, `${baseUrl()}/api/${operation}${query ? `?${query}` : ''}`, { headers: { Accept: 'application/json' } });
  },
});

/** The emulator a file that runs one of its own sends its calls to (test/support/webhooks.ts), else the run's. */
let ownEmulatorUrl: string | undefined;
export const sendApiCallsTo = (url: string | undefined) => {
  ownEmulatorUrl = url;
};

export const api = createApi(() => ownEmulatorUrl ?? inject('apiUrl'));

/** The fields every answer carries. */
export interface Envelope {
  version: string;
  result: 'success' | 'error';
  error_msg: string;
}

type DeclarationOf<N extends OperationName> = Extract<(typeof operations)[number], { name: N }>;

/**
 * An operation's answer as its declaration types it: the envelope plus the fields its output schema declares (an
 * error carries only the envelope's, which tests read after checking the status; a PNG arrives in `raw`).
 */
export type AnswerOf<N extends OperationName> = Envelope &
  (DeclarationOf<N>['output'] extends OutputSchema ? v.InferOutput<DeclarationOf<N>['output']> : unknown);

/** Calls an operation of the run's shared server with the method its declaration says, the answer typed from its output schema. */
export const callOperation = <N extends OperationName>(name: N, params: Params = {}, options: CallOptions = {}) =>
  api.operation(name, params, options);
