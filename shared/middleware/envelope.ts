import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { HttpMiddleware, HttpRequest } from './types.ts';

export const API_VERSION = '1';

/** A successful result that is not JSON (getLiveMap's PNG). */
export class BinaryResult {
  readonly contentType: string;
  readonly bytes: Uint8Array;

  constructor(contentType: string, bytes: Uint8Array) {
    this.contentType = contentType;
    this.bytes = bytes;
  }
}

/**
 * JSON text that a response carries exactly as stored, instead of parsing it and serialising it again: a job
 * card's payload keeps `12345678901234567890`, `1.50`, its key order and its escapes. Only the envelope splices
 * it (see toResponseJson); made only by verbatimJsonObject, which checks the text, so a stored text that is not
 * a JSON object can never break the response around it.
 */
export class VerbatimJson {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }

  /** Checked JSON object text; lone surrogates (possible only inside strings) become their escapes, as JSON.stringify writes them. */
  static ofObject(text: string): VerbatimJson {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error('stored JSON text is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('stored JSON text is not a JSON object');
    return new VerbatimJson(text.replace(/[\uD800-\uDFFF]/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`));
  }
}

/**
 * A stored JSON object's text, spliced into the response as it is. Typed as the object it becomes on the wire,
 * which is what the operations' output schemas describe.
 */
export function verbatimJsonObject(text: string): Record<string, unknown> {
  return VerbatimJson.ofObject(text) as unknown as Record<string, unknown>;
}

/**
 * JSON.stringify, except that each VerbatimJson is written as its text. Each is first written as a string
 * holding a marker drawn for this call, which no other string of the response can hold, then the quoted
 * marker is replaced by the text.
 */
export function toResponseJson(value: unknown): string {
  const fragments: string[] = [];
  let marker: string | undefined;
  const text = JSON.stringify(value, (_key, field: unknown) => {
    if (!(field instanceof VerbatimJson)) return field;
    marker ??= `verbatim-json-${randomUUID()}-`;
    fragments.push(field.text);
    return `${marker}${fragments.length - 1}`;
  });
  if (marker === undefined) return text;
  return text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_quoted, index: string) => fragments[Number(index)] as string);
}

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

export function envelopeResponse(statusCode: number, fields: Record<string, unknown>, errorMessage = ''): APIGatewayProxyResult {
  const result = statusCode < 400 ? 'success' : 'error';
  return {
    statusCode,
    headers: jsonHeaders,
    body: toResponseJson({ version: API_VERSION, result, error_msg: errorMessage, ...fields }),
  };
}

/** Wraps what a handler returns in the spec's envelope: version, result, error_msg, then the fields. */
export const envelopeSerializer = (): HttpMiddleware => {
  const envelopeSerializerAfter = (request: HttpRequest): void => {
    const result: unknown = request.response;
    if (result instanceof BinaryResult) {
      request.response = {
        statusCode: 200,
        headers: { 'Content-Type': result.contentType },
        isBase64Encoded: true,
        body: Buffer.from(result.bytes).toString('base64'),
      };
      return;
    }
    request.response = envelopeResponse(200, (result ?? {}) as Record<string, unknown>);
  };
  return { name: 'envelopeSerializer', after: envelopeSerializerAfter };
};
