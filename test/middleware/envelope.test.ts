import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { BinaryResult, envelopeSerializer } from '../../shared/middleware/envelope.ts';
import { aContext, anEvent } from '../support/events.ts';

const serialized = (result: unknown) => middy().use(envelopeSerializer()).handler(async () => result)(anEvent(), aContext());

describe('envelopeSerializer', () => {
  it('puts version, result and an empty error_msg before the handler\'s fields', async () => {
    const response = await serialized({ cnt: 1, items: ['a'] });
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Type']).toMatch(/^application\/json/);
    expect(response.body).toBe('{"version":"1","result":"success","error_msg":"","cnt":1,"items":["a"]}');
  });

  it('sends a binary result base64-encoded with its own content type', async () => {
    const response = await serialized(new BinaryResult('image/png', new Uint8Array([137, 80, 78, 71])));
    expect(response).toMatchObject({ statusCode: 200, isBase64Encoded: true, headers: { 'Content-Type': 'image/png' } });
    expect(Buffer.from(response.body, 'base64')).toEqual(Buffer.from([137, 80, 78, 71]));
  });
});
