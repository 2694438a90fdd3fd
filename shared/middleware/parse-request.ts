import type { ParsedBody } from '../contracts/request-body.ts';
import { isPlainObject } from '../domain/json.ts';
import { BadRequest, PayloadTooLarge } from '../errors.ts';
import { type HttpMiddleware, type HttpRequest, headerValue, type ParseRequestOptions } from './types.ts';

export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads query string and body into request.internal.params. A body too large is refused at once (it is a
 * transport limit, as API Gateway's own 413 is); a body that is not valid parameters is refused only after
 * the api key check (validateInput throws it), so the order of checks stays method, key, parameters.
 * Clients are told to send Content-Type: application/json on every request, so a body labelled
 * JSON that is really `key=value&...` is read as a form.
 */
export const parseRequest = ({ jsonBody = 'params' }: ParseRequestOptions = {}): HttpMiddleware => {
  const parseRequestBefore = (request: HttpRequest): void => {
    const { event } = request;
    const text = decodeBody(event.body, event.isBase64Encoded);
    if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) {
      throw new PayloadTooLarge(`request body too large (max ${MAX_BODY_BYTES / 1024} KB)`);
    }
    const body = classifyBody(text, headerValue(event, 'content-type') ?? '');
    const query = queryParams(event.queryStringParameters);
    const fromBody = readBodyParams(body, jsonBody);
    request.internal.body = body;
    request.internal.queryParams = query;
    request.internal.bodyParams = fromBody.params;
    request.internal.bodyError = fromBody.error;
    request.internal.params = { ...query, ...fromBody.params };
  };
  return { name: 'parseRequest', before: parseRequestBefore };
};

function decodeBody(body: string | null, isBase64Encoded: boolean): string {
  if (!body) return '';
  return isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

function classifyBody(text: string, contentType: string): ParsedBody {
  if (text.trim() === '') return { kind: 'none' };
  const looksLikeJson = /^\s*[[{"]/.test(text);
  const labelledForm = contentType.toLowerCase().includes('application/x-www-form-urlencoded');
  if (labelledForm || !looksLikeJson) return { kind: 'form', text };
  try {
    return { kind: 'json', text, value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid-json', text };
  }
}

function queryParams(query: Record<string, string | undefined> | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query ?? {}).filter(([, value]) => value !== undefined));
}

/** The body's parameters, or the error it deserves: that error waits until the api key has been checked. */
function readBodyParams(body: ParsedBody, jsonBody: 'params' | 'payload'): { params: Record<string, unknown>; error?: BadRequest } {
  try {
    return { params: bodyParams(body, jsonBody) };
  } catch (error) {
    if (error instanceof BadRequest) return { params: {}, error };
    throw error;
  }
}

function bodyParams(body: ParsedBody, jsonBody: 'params' | 'payload'): Record<string, unknown> {
  switch (body.kind) {
    case 'none':
      return {};
    case 'form':
      return Object.fromEntries(new URLSearchParams(body.text));
    case 'invalid-json':
      if (jsonBody === 'payload') return {};
      throw new BadRequest('request body is not valid JSON');
    case 'json':
      if (jsonBody === 'payload') return {};
      if (!isPlainObject(body.value)) throw new BadRequest('request body must be a JSON object or a form');
      return body.value;
  }
}
