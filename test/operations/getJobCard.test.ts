import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aJobCardPayload, givenJobCard, payloadTextsIn, TRICKY_PAYLOAD_TEXT } from '../support/job-card-builders.ts';

const NOT_FOUND = 'job card not found or not linked to this api key';

describe('getJobCard', () => {
  it("returns exactly the spec's record: integer id, creation time in the user's offset, address, reference, parsed payload", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: -300 });
    const card = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-11-01T03:30:15.000Z', sourceIp: '203.0.113.9' });
    // Act
    const res = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body).toEqual({
      version: '1',
      result: 'success',
      error_msg: '',
      job_card: {
        job_card_uid: card.jobCardUid,
        created_datetime: '2026-10-31 22:30:15',
        source_ip: '203.0.113.9',
        external_reference: 'SITE-1001',
        payload: aJobCardPayload(),
      },
    });
  });

  it('answers a null external reference for a card without one', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user, { CompanyId: 'ACME' });
    const res = await callOperation('getJobCard', { api_key: user.key, job_card_uid: card.jobCardUid });
    expect(res.body.job_card.external_reference).toBeNull();
  });

  it('answers not found for an unknown card', async () => {
    const user = await givenUser();
    const res = await callOperation('getJobCard', { api_key: user.key, job_card_uid: 999999999 });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it("answers not found for another user's card", async () => {
    // Prepare
    const owner = await givenUser();
    const card = await givenJobCard(owner);
    const other = await givenUser();
    // Act
    const res = await callOperation('getJobCard', { api_key: other.key, job_card_uid: card.jobCardUid });
    // Assess
    expect(res).toBeError(404, NOT_FOUND);
  });

  it.each([undefined, '', 'abc', '1.5', '1e30', '99999999999999999999', 'ٱ', '0x10'])('refuses job_card_uid %j', async (jobCardUid) => {
    const user = await givenUser();
    const res = await callOperation('getJobCard', { api_key: user.key, job_card_uid: jobCardUid });
    expect(res).toBeError(400, 'job_card_uid is required and must be an integer');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getJobCard', { api_key: user.key, job_card_uid: 1 });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });

  it('refuses a missing api key', async () => {
    const res = await callOperation('getJobCard', { job_card_uid: 1 });
    expect(res).toBeError(401, 'api key missing');
  });
});

describe('getJobCard payloads', () => {
  it('returns the payload exactly as sent: big integers, trailing zeros, key order, escapes, nested arrays', async () => {
    // Prepare
    const user = await givenUser();
    const added = await api.post(
      'addJobCard',
      {},
      { query: { api_key: user.key }, headers: { 'Content-Type': 'application/json' }, rawBody: TRICKY_PAYLOAD_TEXT },
    );
    // Act
    const res = await callOperation('getJobCard', { api_key: user.key, job_card_uid: added.body.job_card_uid });
    // Assess
    expect(res).toBeSuccess();
    expect(payloadTextsIn(res.raw)).toBe(1);
    expect(res.body.job_card.external_reference).toBe('R-1');
  });
});
