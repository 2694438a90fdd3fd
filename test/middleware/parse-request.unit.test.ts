import middy from '@middy/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BadRequest, PayloadTooLarge } from '../../shared/errors.ts';
import { MAX_BODY_BYTES, parseRequest } from '../../shared/middleware/parse-request.ts';
import type { ParseRequestOptions, RequestState } from '../../shared/middleware/types.ts';
import { validateInput } from '../../shared/middleware/validate-input.ts';
import { aContext, anEvent } from '../support/events.ts';

/** Runs the parser alone and returns what it left in request.internal. */
function parsed(event: ReturnType<typeof anEvent>, options?: ParseRequestOptions): Promise<RequestState> {
  return middy()
    .use(parseRequest(options))
    .before((request) => {
      (request.context as typeof request.context & { state?: unknown }).state = request.internal;
    })
    .handler(async (_event: unknown, context: any) => context.state)(event, aContext());
}

const post = (body: string, contentType?: string, query = '') =>
  anEvent({ method: 'POST', query, body, headers: contentType ? { 'Content-Type': contentType } : {} });

describe('parseRequest', () => {
  it('reads query string parameters', async () => {
    const state = await parsed(anEvent({ query: 'api_key=k&filter=1,2' }));
    expect(state.params).toEqual({ api_key: 'k', filter: '1,2' });
    expect(state.body).toEqual({ kind: 'none' });
  });

  it('reads a form body and lets it win over the query string', async () => {
    const state = await parsed(post('expense_name=Road+tolls&type=3', 'application/x-www-form-urlencoded', 'type=9&api_key=k'));
    expect(state.params).toEqual({ api_key: 'k', expense_name: 'Road tolls', type: '3' });
  });

  it('reads a JSON object body', async () => {
    const state = await parsed(post('{"expense_name":"Tolls","type":3}', 'application/json'));
    expect(state.params).toEqual({ expense_name: 'Tolls', type: 3 });
  });

  it('reads a body labelled JSON that is really a form as a form', async () => {
    const state = await parsed(post('api_key=k&expense_name=Tolls', 'application/json'));
    expect(state.params).toEqual({ api_key: 'k', expense_name: 'Tolls' });
  });

  it('decodes a base64-encoded body', async () => {
    const event = post('', 'application/x-www-form-urlencoded');
    event.body = Buffer.from('expense_name=B%C3%BCro').toString('base64');
    event.isBase64Encoded = true;
    expect((await parsed(event)).params).toEqual({ expense_name: 'Büro' });
  });

  it('keeps the refusal of malformed or non-object JSON for after the key check, with the query string read', async () => {
    const malformed = await parsed(post('{"a":', 'application/json', 'api_key=k'));
    const array = await parsed(post('[1,2]', 'application/json'));
    expect(malformed).toMatchObject({
      params: { api_key: 'k' },
      bodyParams: {},
      bodyError: new BadRequest('request body is not valid JSON'),
    });
    expect(array.bodyError).toEqual(new BadRequest('request body must be a JSON object or a form'));
  });

  it('refuses a malformed body in validateInput, after the key', async () => {
    const chain = middy()
      .use(parseRequest())
      .use(validateInput(v.object({})))
      .handler(async () => 'ran');
    await expect(chain(post('{"a":', 'application/json'), aContext())).rejects.toEqual(new BadRequest('request body is not valid JSON'));
  });

  it('keeps the query string and the body apart for the key lookup', async () => {
    const state = await parsed(post('api_key=&expense_name=T', 'application/x-www-form-urlencoded', 'api_key=k'));
    expect(state).toMatchObject({ queryParams: { api_key: 'k' }, bodyParams: { api_key: '', expense_name: 'T' } });
  });

  it('leaves a JSON body to the handler when the body is a payload', async () => {
    const invalid = await parsed(post('{"a":', 'application/json', 'api_key=k'), { jsonBody: 'payload' });
    const valid = await parsed(post('{"ReferenceNumber":"R1"}', 'application/json'), { jsonBody: 'payload' });
    expect(invalid).toMatchObject({ params: { api_key: 'k' }, body: { kind: 'invalid-json' } });
    expect(valid).toMatchObject({ params: {}, body: { kind: 'json', value: { ReferenceNumber: 'R1' } } });
  });

  it('refuses a body over 256 KB with 413', async () => {
    const body = `expense_name=${'x'.repeat(MAX_BODY_BYTES)}`;
    await expect(parsed(post(body, 'application/x-www-form-urlencoded'))).rejects.toEqual(
      new PayloadTooLarge('request body too large (max 256 KB)'),
    );
  });

  it('accepts a body of exactly 256 KB', async () => {
    const body = `a=${'x'.repeat(MAX_BODY_BYTES - 2)}`;
    await expect(parsed(post(body, 'application/x-www-form-urlencoded'))).resolves.toHaveProperty('params.a');
  });
});
