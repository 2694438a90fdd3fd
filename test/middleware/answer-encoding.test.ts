import { randomBytes } from 'node:crypto';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import middy from '@middy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limits } from '../../shared/config.ts';
import {
  acceptsGzip,
  answerEncoding,
  FASTEST_GZIP_UP_TO_BYTES,
  gzipOptionsFor,
  lambdaResponseSize,
} from '../../shared/middleware/answer-encoding.ts';
import { BinaryResult, envelopeSerializer } from '../../shared/middleware/envelope.ts';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { aContext, anEvent } from '../support/events.ts';

/** The gzip header's extra flags (RFC 1952): 4 for the fastest level, 2 for the slowest, 0 for any other. */
const FASTEST_LEVEL = 4;
const OTHER_LEVELS = 0;

const TOO_LARGE = 'answer too large: narrow the date range or filter, or page with limit and cursor';

const encoded = (result: unknown, acceptEncoding?: string) =>
  middy()
    .use(answerEncoding())
    .use(envelopeSerializer())
    .handler(async () => result)(anEvent({ headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }), aContext());

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['x-gzip', true],
    ['GZIP', true],
    ['*', true],
    ['identity;q=0, *', true],
    ['deflate, gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['identity', false],
    ['identity;q=0', false],
    ['br', false],
    ['', false],
    ['gzip;q=2', false],
    ['gzip;q=abc', false],
    ['gzip;q=0.001', true],
  ])('reads %j as %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('reads a missing header as identity only', () => {
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe('answerEncoding', () => {
  it('compresses a JSON answer the client accepts gzip for, as base64 API Gateway turns into bytes', async () => {
    const response = await encoded({ cnt: 1 }, 'gzip');
    expect(response).toMatchObject({
      statusCode: 200,
      isBase64Encoded: true,
      headers: { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' },
    });
    expect(JSON.parse(gunzipSync(Buffer.from(response.body, 'base64')).toString())).toMatchObject({ result: 'success', cnt: 1 });
  });

  it.each([
    ['a day of positions, which would fit uncompressed too, at the fastest level', 300_000, FASTEST_LEVEL],
    ['an answer that fits only compressed, at the default level', FASTEST_GZIP_UP_TO_BYTES + 1, OTHER_LEVELS],
  ])('compresses %s', async (_answer, bytes, extraFlags) => {
    // Prepare: a body of exactly `bytes`
    const envelope = Buffer.byteLength(JSON.stringify({ version: '1', result: 'success', error_msg: '', text: '' }));
    // Act
    const response = await encoded({ text: 'position '.repeat(bytes).slice(0, bytes - envelope) }, 'gzip');
    // Assess
    const body = Buffer.from(response.body, 'base64');
    expect(gunzipSync(body).length).toBe(bytes);
    expect(body[8]).toBe(extraFlags);
  });

  it('sends plain JSON with Vary to a client that does not accept gzip', async () => {
    const response = await encoded({ cnt: 1 }, 'gzip;q=0');
    expect(response.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept-Encoding' });
    expect(response.isBase64Encoded).toBeUndefined();
    expect(JSON.parse(response.body)).toMatchObject({ cnt: 1 });
  });

  it("leaves getLiveMap's PNG as it is: it is compressed already", async () => {
    const response = await encoded(new BinaryResult('image/png', new Uint8Array([137, 80, 78, 71])), 'gzip');
    expect(response.headers).toEqual({ 'Content-Type': 'image/png' });
  });

  it("turns an answer over Lambda's limit, counted on the response JSON, into the envelope's refusal", async () => {
    // Prepare: random text, which gzip shrinks by a quarter and base64 grows by a third: past 6 MB whichever encoding
    const noise = randomBytes(5_000_000).toString('base64');
    // Act
    const [plain, gzip] = [await encoded({ noise }), await encoded({ noise }, 'gzip')];
    // Assess
    expect(plain.statusCode).toBe(422);
    expect(JSON.parse(plain.body)).toEqual({ version: '1', result: 'error', error_msg: TOO_LARGE });
    expect(gzip.statusCode).toBe(422);
    expect(JSON.parse(gunzipSync(Buffer.from(gzip.body, 'base64')).toString()).error_msg).toBe(TOO_LARGE);
  });

  it('keeps an answer just within the limit', async () => {
    const response = await encoded({ text: 'a'.repeat(limits.lambdaResponseBytes - 300) });
    expect(response.statusCode).toBe(200);
    expect(lambdaResponseSize(response)).toBeLessThanOrEqual(limits.lambdaResponseBytes);
  });
});

describe('gzipOptionsFor', () => {
  /** JSON records much like the service's: repeated field names, varying values. */
  const jsonOf = (records: number, seed: number): Buffer =>
    Buffer.from(
      JSON.stringify(
        Array.from({ length: records }, (_unused, i) => ({ event_uid: seed + i, type: 'trip.ended', at: `2026-11-01 07:${i % 60}:00` })),
      ),
    );

  it("takes zlib's smallest window for a small answer and its default from 32 KB on", () => {
    expect(gzipOptionsFor(185, constants.Z_BEST_SPEED)).toEqual({ level: constants.Z_BEST_SPEED, windowBits: 9, memLevel: 2 });
    expect(gzipOptionsFor(32 * 1024, constants.Z_BEST_SPEED)).toEqual({ level: constants.Z_BEST_SPEED, windowBits: 15, memLevel: 8 });
    expect(gzipOptionsFor(5_000_000, constants.Z_DEFAULT_COMPRESSION)).toMatchObject({ windowBits: 15, memLevel: 8 });
  });

  it('compresses every answer to what gunzip reads back, about as small as the default window does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 1, max: 1e6 }), (records, seed) => {
        // Prepare
        const body = jsonOf(records, seed);
        // Act
        const fitted = gzipSync(body, gzipOptionsFor(body.length, constants.Z_BEST_SPEED));
        const usual = gzipSync(body, { level: constants.Z_BEST_SPEED });
        // Assess
        expect(gunzipSync(fitted).equals(body)).toBe(true);
        expect(fitted.length).toBeLessThanOrEqual(Math.ceil(usual.length * 1.05));
      }),
      { numRuns: 60 },
    );
  });
});

describe('answers over HTTP', () => {
  it('are gzip-compressed, successes and errors, when the client accepts gzip', async () => {
    // Prepare
    const user = await givenUser();
    await givenVehicle(user);
    const gzip = { 'Accept-Encoding': 'gzip' };
    // Act
    const [success, error] = await Promise.all([
      api.get('getVehicles', { api_key: user.key }, { headers: gzip }),
      api.get('getVehicles', { api_key: 'wrong' }, { headers: gzip }),
    ]);
    // Assess
    for (const res of [success, error]) {
      expect([res.headers.get('content-encoding'), res.headers.get('vary')]).toEqual(['gzip', 'Accept-Encoding']);
    }
    expect(success.wireBytes).toBeLessThan(success.raw.length);
    expect(success).toBeSuccess();
    expect(success.body.cnt).toBe(1);
    expect(error).toBeError(401, 'unknown api key');
  });

  it('are plain, with Vary, when the client does not ask for gzip or refuses it', async () => {
    const user = await givenUser();
    for (const acceptEncoding of ['identity', 'gzip;q=0, br', 'br']) {
      const res = await api.get('getVehicles', { api_key: user.key }, { headers: { 'Accept-Encoding': acceptEncoding } });
      expect(res.headers.get('content-encoding'), acceptEncoding).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res).toBeSuccess();
    }
  });
});
