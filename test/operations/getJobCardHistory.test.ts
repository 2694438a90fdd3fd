import { describe, expect, it } from 'vitest';
import { api, callOperation } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aJobCardPayload, givenJobCard, payloadTextsIn, TRICKY_PAYLOAD_TEXT } from '../support/job-card-builders.ts';

const NOT_FOUND = 'job card not found or not linked to this api key';
const json = { 'Content-Type': 'application/json' };

describe('getJobCardHistory', () => {
  it('lists the create and every edit oldest first, each with the payload and reference of its time', async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const card = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-11-01T06:00:00.000Z', sourceIp: '198.51.100.7' });
    const edits = [{ ReferenceNumber: 'E-1' }, { CompanyId: 'no reference' }, { SiteReferenceNumber: 'E-3', Note: 'ü' }];
    for (const payload of edits) {
      await api.post(
        'editJobCard',
        {},
        { query: { api_key: user.key, job_card_uid: card.jobCardUid }, headers: json, rawBody: JSON.stringify(payload) },
      );
    }
    // Act
    const res = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: card.jobCardUid });
    // Assess
    expect(res).toBeSuccess();
    expect(res.body.job_card_uid).toBe(card.jobCardUid);
    expect(res.body.cnt).toBe(4);
    expect(res.body.history.map(({ history_uid: _, snapshot_datetime: __, ...rest }: Record<string, unknown>) => rest)).toEqual([
      {
        action: 'create',
        changed_by_user_uid: user.userUid,
        source_ip: '198.51.100.7',
        external_reference: 'SITE-1001',
        payload: aJobCardPayload(),
      },
      { action: 'edit', changed_by_user_uid: user.userUid, source_ip: '127.0.0.1', external_reference: 'E-1', payload: edits[0] },
      { action: 'edit', changed_by_user_uid: user.userUid, source_ip: '127.0.0.1', external_reference: null, payload: edits[1] },
      { action: 'edit', changed_by_user_uid: user.userUid, source_ip: '127.0.0.1', external_reference: 'E-3', payload: edits[2] },
    ]);
  });

  it("numbers snapshots with increasing integers and dates them in the user's offset", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const card = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-11-01T06:00:00.000Z' });
    await callOperation('editJobCard', { api_key: user.key, job_card_uid: card.jobCardUid, payload: '{}' });
    // Act
    const res = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: card.jobCardUid });
    // Assess
    const [created, edited] = res.body.history;
    expect(Number.isInteger(created?.history_uid) && Number.isInteger(edited?.history_uid)).toBe(true);
    expect(Number(edited?.history_uid)).toBeGreaterThan(Number(created?.history_uid));
    expect(created?.snapshot_datetime).toBe('2026-11-01 08:00:00');
    const nowInOffset = new Date(Date.now() + 120 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(String(edited?.snapshot_datetime).slice(0, 16) <= nowInOffset).toBe(true);
    expect(edited?.snapshot_datetime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('answers not found for an unknown card', async () => {
    const user = await givenUser();
    const res = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: 999999999 });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it("answers not found for another user's card", async () => {
    const owner = await givenUser();
    const card = await givenJobCard(owner);
    const other = await givenUser();
    const res = await callOperation('getJobCardHistory', { api_key: other.key, job_card_uid: card.jobCardUid });
    expect(res).toBeError(404, NOT_FOUND);
  });

  it.each([undefined, '', 'x', '2.0', '1e30', '99999999999999999999'])('refuses job_card_uid %j', async (jobCardUid) => {
    const user = await givenUser();
    const res = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: jobCardUid });
    expect(res).toBeError(400, 'job_card_uid is required and must be an integer');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getJobCardHistory', { api_key: user.key, job_card_uid: 1 });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });
});

describe('getJobCardHistory payloads', () => {
  it("returns each snapshot's payload exactly as sent, the create's and the edit's", async () => {
    // Prepare
    const user = await givenUser();
    const added = await callOperation('addJobCard', {}, { query: { api_key: user.key }, headers: json, rawBody: TRICKY_PAYLOAD_TEXT });
    await callOperation('editJobCard', { api_key: user.key, job_card_uid: added.body.job_card_uid, payload: TRICKY_PAYLOAD_TEXT });
    // Act
    const res = await callOperation('getJobCardHistory', { api_key: user.key, job_card_uid: added.body.job_card_uid });
    // Assess
    expect(res.body.history.map((snapshot: { action: string }) => snapshot.action)).toEqual(['create', 'edit']);
    expect(payloadTextsIn(res.raw)).toBe(2);
  });
});
