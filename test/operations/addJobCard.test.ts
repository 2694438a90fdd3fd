import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aJobCardPayload, payloadTextsIn, TRICKY_PAYLOAD_TEXT } from '../support/job-card-builders.ts';

const REQUIRED = 'payload is required (raw JSON body or a payload form field)';
const NOT_JSON = 'payload is not valid JSON';
const TOO_DEEP = 'payload is nested too deeply (max 64 levels)';
const json = { 'Content-Type': 'application/json' };

const storedItem = async (userUid: number, jobCardUid: number) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.jobCard(userUid, jobCardUid) }))).Item;

describe('addJobCard with a raw JSON body', () => {
  it('stores the card and answers its integer id and the external reference', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await api.post(
      'addJobCard',
      {},
      { query: { api_key: user.key }, headers: json, rawBody: JSON.stringify(aJobCardPayload()) },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body)).toEqual(['version', 'result', 'error_msg', 'job_card_uid', 'external_reference']);
    expect(Number.isInteger(res.body.job_card_uid)).toBe(true);
    expect(res.body.external_reference).toBe('SITE-1001');
  });

  it('accepts the api key in the X-Api-Key header', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation(
      'addJobCard',
      {},
      { headers: { ...json, 'X-Api-Key': user.key }, rawBody: '{"ReferenceNumber":"R-1"}' },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('R-1');
  });

  it('keeps the payload verbatim: key order, unknown keys, nesting, unicode and number formatting', async () => {
    // Prepare
    const user = await givenUser();
    const text = '{ "zeta": 1.50, "Custom": {"b": [1, 2.0, "x"], "a": null}, "SiteName": "Café Ōsaka 🚚", "alpha": 1e3 }';
    // Act
    const res = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody: text });
    // Assess
    expect(res).toBeSuccess();
    expect((await storedItem(user.userUid, res.body.job_card_uid))?.payload).toBe(text);
    const read = await callOperation('getJobCard', { api_key: user.key, job_card_uid: res.body.job_card_uid });
    expect(read.body.job_card.payload).toEqual(JSON.parse(text));
    expect(Object.keys(read.body.job_card.payload)).toEqual(['zeta', 'Custom', 'SiteName', 'alpha']);
  });

  it('records the address the request came from and a create snapshot', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation(
      'addJobCard',
      {},
      { query: { api_key: user.key }, headers: json, rawBody: '{"ReferenceNumber":"R-9"}' },
    );
    // Assess
    const card = await callOperation('getJobCard', { api_key: user.key, job_card_uid: res.body.job_card_uid });
    expect(card.body.job_card.source_ip).toBe('127.0.0.1');
    const history = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: res.body.job_card_uid });
    expect(history.body.history).toMatchObject([
      { action: 'create', source_ip: '127.0.0.1', external_reference: 'R-9', payload: { ReferenceNumber: 'R-9' } },
    ]);
  });

  it('does not take the api key from inside the payload', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addJobCard', {}, { headers: json, rawBody: JSON.stringify({ api_key: user.key }) });
    // Assess
    expect(res).toBeError(401, 'api key missing');
  });

  it.each([
    ['a truncated object', '{"CompanyId": "ACME"'],
    ['an array', '[{"CompanyId": "ACME"}]'],
    ['a string', '"ACME"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
    ['plain text', 'hello'],
  ])('refuses %s as not valid JSON', async (_, rawBody) => {
    const user = await givenUser();
    const res = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody });
    expect(res).toBeError(400, NOT_JSON);
  });

  it('refuses a request without a body', async () => {
    const user = await givenUser();
    const res = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody: '' });
    expect(res).toBeError(400, REQUIRED);
  });

  it('refuses a body over 256 KB with 413', async () => {
    // Prepare
    const user = await givenUser();
    const rawBody = JSON.stringify({ Instructions: 'x'.repeat(256 * 1024) });
    // Act
    const res = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody });
    // Assess
    expect(res).toBeError(413, 'request body too large (max 256 KB)');
  });

  it('stores a payload just under the limit, keeping over-long Instructions in the payload only', async () => {
    // Prepare
    const user = await givenUser();
    const instructions = 'é'.repeat(120 * 1024);
    const rawBody = JSON.stringify({ ReferenceNumber: 'BIG-1', Instructions: instructions });
    // Act
    const res = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody });
    // Assess
    expect(res).toBeSuccess();
    const item = await storedItem(user.userUid, res.body.job_card_uid);
    expect(item?.instructions).toBeUndefined();
    expect(item?.payload).toBe(rawBody);
  });
});

describe('addJobCard with a payload form field', () => {
  it('stores the JSON text of the field, api key in the body', async () => {
    // Prepare
    const user = await givenUser();
    const payload = JSON.stringify(aJobCardPayload({ SiteReferenceNumber: undefined }));
    // Act
    const res = await callOperation('addJobCard', { api_key: user.key, payload });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('REF-77');
    expect((await storedItem(user.userUid, res.body.job_card_uid))?.payload).toBe(payload);
  });

  it('reads a form body even when it is labelled application/json', async () => {
    // Prepare
    const user = await givenUser();
    const rawBody = new URLSearchParams({ api_key: user.key, payload: '{"SiteReferenceNumber":"S-5"}' }).toString();
    // Act
    const res = await callOperation('addJobCard', {}, { headers: json, rawBody });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('S-5');
  });

  it("takes a JSON object body labelled as a form (curl -d's default) as the payload", async () => {
    // Prepare
    const user = await givenUser();
    const rawBody = '{"ReferenceNumber":"R=1","Note":"a&b"}';
    // Act
    const res = await api.post(
      'addJobCard',
      {},
      { query: { api_key: user.key }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, rawBody },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('R=1');
    expect((await storedItem(user.userUid, res.body.job_card_uid))?.payload).toBe(rawBody);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('refuses a %s payload field', async (_, payload) => {
    const user = await givenUser();
    const res = await callOperation('addJobCard', { api_key: user.key, payload });
    expect(res).toBeError(400, REQUIRED);
  });

  it.each([
    ['not JSON', 'nope'],
    ['an array', '[1,2]'],
    ['a number', '12'],
    ['broken', '{"a":'],
  ])('refuses a payload field that is %s', async (_, payload) => {
    const user = await givenUser();
    const res = await callOperation('addJobCard', { api_key: user.key, payload });
    expect(res).toBeError(400, NOT_JSON);
  });
});

describe('addJobCard extraction', () => {
  it('stores the recognised keys as typed attributes, DueDate in UTC', async () => {
    // Prepare
    const user = await givenUser();
    // Act
    const res = await callOperation('addJobCard', {
      api_key: user.key,
      payload: JSON.stringify(aJobCardPayload({ IsPriority: true, SyncState: 2 })),
    });
    // Assess
    expect(await storedItem(user.userUid, res.body.job_card_uid)).toMatchObject({
      company_id: 'ACME',
      consignor: 'ACME Distribution',
      consignee: 'Corner Store',
      site_name: 'Corner Store Rosebank',
      site_reference_number: 'SITE-1001',
      site_address_line1: '12 Main Road',
      site_address_suburb: 'Rosebank',
      site_address_city: 'Johannesburg',
      site_address_postal_code: '2196',
      due_date: '2026-11-02T08:00:00Z',
      reference_number: 'REF-77',
      instructions: 'Deliver to the loading bay',
      latitude: -26.1452,
      longitude: 28.0437,
      is_delivery: 1,
      is_priority: 1,
      planned_sequence: 3,
      sync_state: 2,
      external_reference: 'SITE-1001',
    });
  });

  it('keeps a card whose recognised values are over-long or wrongly typed, leaving them unextracted', async () => {
    // Prepare
    const user = await givenUser();
    const payload = {
      CompanyId: 'C'.repeat(51),
      SiteReferenceNumber: 12345,
      ReferenceNumber: 'R-OK',
      DueDate: 'next tuesday',
      Latitude: '-26.1',
      IsDelivery: 2,
      PlannedSequence: 1.5,
      TripStopId: 99999999999999999999,
      SiteAddress: 'Main Road',
    };
    // Act
    const res = await callOperation('addJobCard', { api_key: user.key, payload: JSON.stringify(payload) });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('R-OK');
    const item = await storedItem(user.userUid, res.body.job_card_uid);
    for (const attribute of [
      'company_id',
      'site_reference_number',
      'due_date',
      'latitude',
      'is_delivery',
      'planned_sequence',
      'trip_stop_id',
      'site_address_line1',
    ]) {
      expect(item?.[attribute]).toBeUndefined();
    }
    expect(JSON.parse(String(item?.payload))).toEqual(JSON.parse(JSON.stringify(payload)));
  });

  it.each([
    ['SiteReferenceNumber first', { SiteReferenceNumber: 'S-1', ReferenceNumber: 'R-1' }, 'S-1'],
    ['ReferenceNumber when SiteReferenceNumber is blank', { SiteReferenceNumber: '  ', ReferenceNumber: 'R-1' }, 'R-1'],
    ['trimmed', { ReferenceNumber: ' R-2 ' }, 'R-2'],
    ['null when neither is present', { CompanyId: 'ACME' }, null],
  ])('takes the external reference from %s', async (_, payload, expected) => {
    const user = await givenUser();
    const res = await callOperation('addJobCard', { api_key: user.key, payload: JSON.stringify(payload) });
    expect(res.body.external_reference).toBe(expected);
  });
});

describe('addJobCard refusals', () => {
  it('refuses a payload nested deeper than 64 levels, which could not be read back', async () => {
    // Prepare
    const user = await givenUser();
    const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    // Act
    const deepest = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody: nested(64) });
    const tooDeep = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody: nested(65) });
    const farTooDeep = await callOperation('addJobCard', { api_key: user.key, payload: nested(20_000) });
    // Assess
    expect(deepest).toBeSuccess();
    expect(tooDeep).toBeError(400, TOO_DEEP);
    expect(farTooDeep).toBeError(400, TOO_DEEP);
    const cards = await callOperation('getJobCards', { api_key: user.key });
    expect(cards).toBeSuccess();
    expect(cards.body.cnt).toBe(1);
  });

  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const res = await api.get('addJobCard', { api_key: user.key });
    expect(res).toBeError(405, 'method not allowed, use POST');
  });

  it('refuses a missing or unknown api key', async () => {
    const missing = await callOperation('addJobCard', {}, { headers: json, rawBody: '{}' });
    const unknown = await callOperation('addJobCard', {}, { query: { api_key: 'not-a-key' }, headers: json, rawBody: '{}' });
    expect(missing).toBeError(401, 'api key missing');
    expect(unknown).toBeError(401, 'unknown api key');
  });
});

describe('addJobCard payloads read back', () => {
  it.each([
    ['a payload form field', (key: string) => callOperation('addJobCard', { api_key: key, payload: TRICKY_PAYLOAD_TEXT })],
    [
      'a JSON body labelled as a form',
      (key: string) =>
        api.post(
          'addJobCard',
          {},
          { query: { api_key: key }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, rawBody: TRICKY_PAYLOAD_TEXT },
        ),
    ],
    [
      'a raw JSON body',
      (key: string) => callOperation('addJobCard', {}, { query: { api_key: key }, headers: json, rawBody: TRICKY_PAYLOAD_TEXT }),
    ],
  ])('returns the text sent in %s exactly, in the card and its create snapshot', async (_, add) => {
    // Prepare
    const user = await givenUser();
    // Act
    const added = await add(user.key);
    // Assess
    expect(added).toBeSuccess();
    const [card, history] = await Promise.all([
      callOperation('getJobCard', { api_key: user.key, job_card_uid: added.body.job_card_uid }),
      callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: added.body.job_card_uid }),
    ]);
    expect(payloadTextsIn(card.raw)).toBe(1);
    expect(payloadTextsIn(history.raw)).toBe(1);
  });
});
