import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aJobCardPayload, givenJobCard, payloadTextsIn, TRICKY_PAYLOAD_TEXT } from '../support/job-card-builders.ts';

const REQUIRED = 'payload is required (raw JSON body or a payload form field)';
const NOT_JSON = 'payload is not valid JSON';
const NOT_FOUND = 'job card not found or not linked to this api key';
const json = { 'Content-Type': 'application/json' };

describe('editJobCard with a raw JSON body', () => {
  it('replaces the payload and refreshes the external reference, keeping the creation time and address', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const card = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-11-01T06:00:00.000Z', sourceIp: '198.51.100.7' });
    const text = '{"ReferenceNumber":"R-NEW","Extra":{"kept":true}}';
    // Act
    const res = await api.post(
      'editJobCard',
      {},
      { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody: text },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toEqual({
      version: '1',
      result: 'success',
      error_msg: '',
      job_card_uid: card.jobCardUid,
      external_reference: 'R-NEW',
    });
    const read = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(read.body.job_card).toEqual({
      job_card_uid: card.jobCardUid,
      created_datetime: '2026-11-01 08:00:00',
      source_ip: '198.51.100.7',
      external_reference: 'R-NEW',
      payload: { ReferenceNumber: 'R-NEW', Extra: { kept: true } },
    });
  });

  it('accepts the api key in the X-Api-Key header', async () => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user);
    // Act
    const res = await api.post(
      'editJobCard',
      {},
      {
        query: { job_card_uid: card.jobCardUid },
        headers: { ...json, 'X-Api-Key': user.key },
        rawBody: '{"SiteReferenceNumber":"S-2"}',
      },
    );
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.external_reference).toBe('S-2');
  });

  it('answers a null external reference when the new payload has none', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const res = await api.post(
      'editJobCard',
      {},
      { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody: '{"CompanyId":"ACME"}' },
    );
    expect(res.body.external_reference).toBeNull();
  });

  it('moves the card between external reference filters', async () => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user, aJobCardPayload({ SiteReferenceNumber: 'OLD-1' }));
    // Act
    await api.post(
      'editJobCard',
      {},
      { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody: '{"SiteReferenceNumber":"NEW-1"}' },
    );
    // Assess
    const byOld = await callOperation('getJobCards', { api_key: user.key, external_reference: 'OLD-1' });
    const byNew = await callOperation('getJobCards', { api_key: user.key, external_reference: 'NEW-1' });
    expect(byOld.body.cnt).toBe(0);
    expect(byNew.body.job_cards.map((c: { job_card_uid: number }) => c.job_card_uid)).toEqual([card.jobCardUid]);
  });

  it('needs job_card_uid in the query string, not inside the payload', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const res = await api.post(
      'editJobCard',
      {},
      { query: { api_key: user.key }, headers: json, rawBody: JSON.stringify({ job_card_uid: card.jobCardUid }) },
    );
    expect(res).toBeError(400, 'job_card_uid is required and must be an integer');
  });

  it.each([
    ['truncated', '{"a":'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '7'],
  ])('refuses a %s body as not valid JSON', async (_, rawBody) => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const res = await callOperation(
      'editJobCard',
      {},
      { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody },
    );
    expect(res).toBeError(400, NOT_JSON);
  });

  it('refuses a body over 256 KB with 413', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const rawBody = JSON.stringify({ Instructions: 'x'.repeat(257 * 1024) });
    const res = await callOperation(
      'editJobCard',
      {},
      { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody },
    );
    expect(res).toBeError(413, 'request body too large (max 256 KB)');
  });
});

describe('editJobCard with a payload form field', () => {
  it('replaces the payload with the field, everything in the form body', async () => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user);
    // Act
    const res = await callOperation('editJobCard', {
      api_key: user.key,
      job_card_uid: card.jobCardUid,
      payload: '{"ReferenceNumber":"R-FORM"}',
    });
    // Assess
    expect(res).toBeSuccess();
    const read = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(read.body.job_card.payload).toEqual({ ReferenceNumber: 'R-FORM' });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
  ])('refuses a %s payload', async (_, payload) => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const res = await callOperation('editJobCard', { api_key: user.key, job_card_uid: card.jobCardUid, payload });
    expect(res).toBeError(400, REQUIRED);
  });

  it('refuses a payload field that is not a JSON object', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user);
    const res = await callOperation('editJobCard', { api_key: user.key, job_card_uid: card.jobCardUid, payload: '"text"' });
    expect(res).toBeError(400, NOT_JSON);
  });

  it('refuses a payload nested deeper than 64 levels, leaving the card readable as it was', async () => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user);
    const payload = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    // Act
    const res = await callOperation('editJobCard', { api_key: user.key, job_card_uid: card.jobCardUid, payload });
    // Assess
    expect(res).toBeError(400, 'payload is nested too deeply (max 64 levels)');
    const read = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(read).toBeSuccess();
    expect(read.body.job_card.payload).toEqual(aJobCardPayload());
  });

  it.each(['', 'abc', '1.5', '-', '1e30', '99999999999999999999', '１２'])('refuses job_card_uid %j', async (jobCardUid) => {
    const user = await givenUser();
    const res = await callOperation('editJobCard', { api_key: user.key, job_card_uid: jobCardUid, payload: '{}' });
    expect(res).toBeError(400, 'job_card_uid is required and must be an integer');
  });

  it('checks job_card_uid before the payload', async () => {
    const user = await givenUser();
    const res = await callOperation('editJobCard', { api_key: user.key });
    expect(res).toBeError(400, 'job_card_uid is required and must be an integer');
  });
});

describe('editJobCard and other users', () => {
  it('answers not found for an unknown card', async () => {
    const user = await givenUser();
    const res = await callOperation('editJobCard', { api_key: user.key, job_card_uid: 999999999, payload: '{}' });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it("answers not found for another user's card and leaves it unchanged", async () => {
    // Prepare
    const owner = await givenUser();
    const card = await givenJobCard(owner);
    const other = await givenUser();
    // Act
    const res = await callOperation('editJobCard', {
      api_key: other.key,
      job_card_uid: card.jobCardUid,
      payload: '{"ReferenceNumber":"HIJACK"}',
    });
    // Assess
    expect(res).toBeError(404, NOT_FOUND);
    const read = await callOperation('getJobCard', { api_key: owner.key, job_card_uid: card.jobCardUid });
    expect(read.body.job_card).toMatchObject({ external_reference: 'SITE-1001', payload: aJobCardPayload() });
    const history = await callOperation('getJobCardHistory', { api_key: owner.key, job_card_uid: card.jobCardUid });
    expect(history.body.cnt).toBe(1);
  });
});

describe('editJobCard under concurrency', () => {
  it('applies parallel edits one after another, each with its own snapshot', async () => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user);
    const references = ['P-1', 'P-2', 'P-3', 'P-4', 'P-5'];
    // Act
    const results = await Promise.all(
      references.map((reference) =>
        callOperation('editJobCard', {
          api_key: user.key,
          job_card_uid: card.jobCardUid,
          payload: JSON.stringify({ ReferenceNumber: reference }),
        }),
      ),
    );
    // Assess
    for (const res of results) expect(res).toBeSuccess();
    const history = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(history.body.cnt).toBe(6);
    const edits = history.body.history.slice(1).map((snapshot) => snapshot.external_reference);
    expect([...edits].sort()).toEqual(references);
    const current = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(current.body.job_card.external_reference).toBe(edits.at(-1));
    const listed = await Promise.all(
      references.map((reference) => callOperation('getJobCards', { api_key: user.key, external_reference: reference })),
    );
    expect(listed.map((res) => res.body.cnt)).toEqual(references.map((reference) => (reference === edits.at(-1) ? 1 : 0)));
  });
});

describe('editJobCard refusals', () => {
  it('refuses a GET with the method message', async () => {
    const user = await givenUser();
    const res = await api.get('editJobCard', { api_key: user.key, job_card_uid: 1 });
    expect(res).toBeError(405, 'method not allowed, use POST');
  });

  it('refuses an unknown api key', async () => {
    const res = await callOperation('editJobCard', { api_key: 'nope', job_card_uid: 1, payload: '{}' });
    expect(res).toBeError(401, 'unknown api key');
  });
});

describe('editJobCard payloads read back', () => {
  it.each([
    [
      'a payload form field',
      (key: string, uid: number) => callOperation('editJobCard', { api_key: key, job_card_uid: uid, payload: TRICKY_PAYLOAD_TEXT }),
    ],
    [
      'a raw JSON body',
      (key: string, uid: number) =>
        callOperation('editJobCard', {}, { query: { api_key: key, job_card_uid: uid }, headers: json, rawBody: TRICKY_PAYLOAD_TEXT }),
    ],
  ])('returns the text sent in %s exactly, in the card and its edit snapshot', async (_, edit) => {
    // Prepare
    const user = await givenUser();
    const card = await givenJobCard(user);
    // Act
    const edited = await edit(user.key, card.jobCardUid);
    // Assess
    expect(edited).toBeSuccess();
    const [read, history] = await Promise.all([
      callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid }),
      callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: card.jobCardUid }),
    ]);
    expect(payloadTextsIn(read.raw)).toBe(1);
    expect(payloadTextsIn(history.raw)).toBe(1);
  });
});
