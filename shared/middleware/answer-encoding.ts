import { constants, gzipSync, type ZlibOptions } from 'node:zlib';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { limits } from '../config.ts';
import { AnswerTooLarge } from '../errors.ts';
import { envelopeResponse } from './envelope.ts';
import { type HttpMiddleware, type HttpRequest, headerValue } from './types.ts';

/**
 * Whether an Accept-Encoding value (RFC 9110 §12.5.3) allows gzip: `gzip` (or its alias `x-gzip`) with a q above 0,
 * or, when gzip is not named, `*` with a q above 0. A missing header allows nothing but identity.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = qualityOf(params);
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (coding === '*') any = q;
  }
  return (gzip ?? any ?? 0) > 0;
}

/** A coding's weight: 1 unless a valid `q=` says otherwise; a malformed q counts as 0 (not acceptable). */
function qualityOf(params: string[]): number {
  const q = params.find((param) => param.startsWith('q='));
  if (q === undefined) return 1;
  const value = q.slice(2).trim();
  return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : 0;
}

/** The size Lambda counts: the response as the JSON it sends to API Gateway. */
export const lambdaResponseSize = (response: APIGatewayProxyResult): number => Buffer.byteLength(JSON.stringify(response), 'utf8');

/**
 * Whether Lambda would refuse the response. The response JSON spends at most 6 bytes on a body character (`\u001f`), so
 * only a body within a sixth of the limit is worth serializing again to measure.
 */
function passesLambdaLimit(response: APIGatewayProxyResult): boolean {
  const mostBytes = response.body.length * 6 + lambdaResponseSize({ ...response, body: '' });
  return mostBytes > limits.lambdaResponseBytes && lambdaResponseSize(response) > limits.lambdaResponseBytes;
}

/**
 * The outermost HTTP phase, so it sees every answer, successes and the error mapper's envelopes alike: a JSON answer is
 * gzip-compressed when the client accepts it (base64 with isBase64Encoded, which API Gateway turns back into bytes as
 * it does getLiveMap's PNG), and any answer Lambda could not return (over its 6 MB, counted on the response JSON) becomes
 * the envelope's `answer too large` instead of API Gateway's 502. Handlers refuse well before this (shared/paging);
 * this is the net for what a budget could not foresee, such as a body that compresses badly.
 */
export const answerEncoding = (): HttpMiddleware => {
  const answerEncodingAfter = (request: HttpRequest): void => {
    const gzip = acceptsGzip(headerValue(request.event, 'accept-encoding'));
    const response = request.response && encoded(request.response, gzip);
    if (response && passesLambdaLimit(response)) {
      const refusal = new AnswerTooLarge();
      request.response = encoded(envelopeResponse(refusal.status, {}, refusal.message), gzip);
      return;
    }
    request.response = response;
  };
  return { name: 'answerEncoding', after: answerEncodingAfter, onError: answerEncodingAfter };
};

/**
 * A body up to this size fits Lambda's limit even if gzip saved nothing (base64 adds a third; the margin holds the
 * response's other fields): it is compressed at gzip's fastest level, which for a day of positions (300 KB) takes a
 * third of the default level's time for a quarter more bytes. A larger body fits only by its ratio (the gzip budget,
 * docs/paging.md), so it gets the default level.
 */
export const FASTEST_GZIP_UP_TO_BYTES = Math.floor((limits.lambdaResponseBytes * 3) / 4) - 64 * 1024;

/** What deflate keeps ahead of its window (zlib's MIN_LOOKAHEAD): a body this much under the window is wholly within reach. */
const LOOKAHEAD_BYTES = 262;

/**
 * gzip's window and hash table sized to the body, from zlib's smallest (512 bytes) to its default (32 KB): a window
 * larger than the body finds no more matches, and making and clearing the default's 256 KB of state cost a small
 * answer more than compressing it (a 185-byte answer 24 → 15 µs, a 7.6 KB page of events 19 → 16 µs, the same bytes).
 */
export function gzipOptionsFor(bodyBytes: number, level: number): ZlibOptions {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bodyBytes + LOOKAHEAD_BYTES))));
  return { level, windowBits, memLevel: windowBits - 7 };
}

/** An answer's JSON compressed as the service sends it (the operations bench times this too). */
export function gzipAnswerBody(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  const level = body.length <= FASTEST_GZIP_UP_TO_BYTES ? constants.Z_BEST_SPEED : constants.Z_DEFAULT_COMPRESSION;
  return gzipSync(body, gzipOptionsFor(body.length, level));
}

function encoded(response: APIGatewayProxyResult, gzip: boolean): APIGatewayProxyResult {
  const contentType = String(response.headers?.['Content-Type'] ?? '');
  if (!contentType.startsWith('application/json') || response.isBase64Encoded) return response;
  const headers = { ...response.headers, Vary: 'Accept-Encoding' };
  if (!gzip) return { ...response, headers };
  return {
    ...response,
    headers: { ...headers, 'Content-Encoding': 'gzip' },
    isBase64Encoded: true,
    body: gzipAnswerBody(response.body).toString('base64'),
  };
}
