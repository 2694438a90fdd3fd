import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { verbatimJsonObject, writtenRecords } from '../../shared/contracts/verbatim-json.ts';
import { BinaryResult, envelopeSerializer } from '../../shared/middleware/envelope.ts';
import { aContext, anEvent } from '../support/events.ts';

const serialized = (result: unknown) =>
  middy()
    .use(envelopeSerializer())
    .handler(async () => result)(anEvent(), aContext());

describe('envelopeSerializer', () => {
  it("puts version, result and an empty error_msg before the handler's fields", async () => {
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

describe('envelopeSerializer with verbatim JSON', () => {
  it('splices stored JSON text into the response exactly as it is, wherever it sits', async () => {
    // Prepare
    const text = '{ "n": 12345678901234567890, "price": 1.50, "b": 1, "a": "\\u00e9", "list": [[1, 2.0], {}] }';
    // Act
    const response = await serialized({ card: { payload: verbatimJsonObject(text) }, cards: [{ payload: verbatimJsonObject('{}') }] });
    // Assess
    expect(response.body).toBe(`{"version":"1","result":"success","error_msg":"","card":{"payload":${text}},"cards":[{"payload":{}}]}`);
  });

  it('keeps text that looks like a replacement pattern or a marker as it is', async () => {
    // Prepare
    const text = '{"dollar":"$& $1 $$","quote":"\\"","marker":"verbatim-json-0"}';
    // Act
    const response = await serialized({ payload: verbatimJsonObject(text), note: 'verbatim-json-0' });
    // Assess
    expect(response.body).toBe(`{"version":"1","result":"success","error_msg":"","payload":${text},"note":"verbatim-json-0"}`);
    expect(JSON.parse(response.body).payload).toEqual(JSON.parse(text));
  });

  it.each(['{"a":', 'not json', '[1,2]', '"text"', 'null', '{"a":1} {"b":2}'])('refuses to splice %j, which is no JSON object', (text) => {
    expect(() => verbatimJsonObject(text)).toThrow(/not (valid JSON|a JSON object)/);
  });

  it('escapes a lone surrogate, which no UTF-8 response can carry, as JSON.stringify does', async () => {
    const response = await serialized({ payload: verbatimJsonObject('{"a":"\ud800x"}') });
    expect(response.body).toContain('"payload":{"a":"\\ud800x"}');
  });
});

describe('envelopeSerializer with JSON the service wrote', () => {
  it('answers the objects JSON.stringify wrote byte for byte as the objects themselves would be written', async () => {
    // Prepare: what a feed stores of an event
    const events = [
      { event_id: 'evt_1', type: 'trip.ended', data: { vehicle_uid: 7, distance_km: 12.5, note: 'caf\u00e9 "quoted" \ud800' } },
      { event_id: 'evt_2', type: 'fuel.fill', data: { vehicle_uid: 7, litres: 40 } },
    ];
    const stored = events.map((event) => JSON.stringify(event));
    // Act
    const response = await serialized({ cnt: 2, events: writtenRecords(stored) });
    // Assess
    expect(response.body).toBe((await serialized({ cnt: 2, events })).body);
  });

  it('answers no objects as an empty array', async () => {
    const response = await serialized({ cnt: 0, events: writtenRecords([]) });
    expect(response.body).toBe('{"version":"1","result":"success","error_msg":"","cnt":0,"events":[]}');
  });
});

describe('verbatim JSON outside a response', () => {
  it('serializes as the object its text holds, and leaves no marker behind for the next response', async () => {
    // Prepare
    const payload = verbatimJsonObject('{"b":1,"a":[2.5]}');
    // Act
    const logged = JSON.stringify({ payload });
    const response = await serialized({ payload });
    // Assess
    expect(logged).toBe('{"payload":{"b":1,"a":[2.5]}}');
    expect(response.body).toBe('{"version":"1","result":"success","error_msg":"","payload":{"b":1,"a":[2.5]}}');
  });
});
