import type { APIGatewayProxyResult } from 'aws-lambda';
import { API_VERSION } from '../contracts/envelope.ts';
import { toResponseJson } from '../contracts/verbatim-json.ts';
import type { HttpMiddleware, HttpRequest } from './types.ts';

/** A successful result that is not JSON (getLiveMap's PNG). */
export class BinaryResult {
  readonly contentType: string;
  readonly bytes: Uint8Array;

  constructor(contentType: string, bytes: Uint8Array) {
    this.contentType = contentType;
    this.bytes = bytes;
  }
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
