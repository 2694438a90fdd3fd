import { describe, expect, it } from 'vitest';
import { parsePayload } from '../../shared/domain/job-card/parse.ts';
import { describePayload } from '../../shared/domain/job-card/rules.ts';
import { addJobCard } from '../../shared/store/job-cards.ts';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';
import { aJobCardPayload, givenJobCard, givenJobCards, payloadTextsIn, TRICKY_PAYLOAD_TEXT } from '../support/job-card-builders.ts';

const FORMAT = 'from_date / to_date format error (yyyy-mm-dd)';
const uids = (res: { body: { job_cards: { job_card_uid: number }[] } }) => res.body.job_cards.map((card) => card.job_card_uid);

describe('getJobCards', () => {
  it("returns the user's cards newest first as the spec's records", async () => {
    // Prepare
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const older = await givenJobCard(user, aJobCardPayload(), { createdAt: '2026-11-01T06:00:00.000Z', sourceIp: '198.51.100.7' });
    const newer = await givenJobCard(user, { ReferenceNumber: 'R-2' }, { createdAt: '2026-11-02T06:00:00.000Z' });
    // Act
    const res = await api.get('getJobCards', { api_key: user.key });
    // Assess
    expect(res).toBeSuccess();
    expect(Object.keys(res.body)).toEqual(['version', 'result', 'error_msg', 'cnt', 'job_cards']);
    expect(res.body.cnt).toBe(2);
    expect(res.body.job_cards).toEqual([
      {
        job_card_uid: newer.jobCardUid,
        created_datetime: '2026-11-02 08:00:00',
        source_ip: '198.51.100.7',
        external_reference: 'R-2',
        payload: { ReferenceNumber: 'R-2' },
      },
      {
        job_card_uid: older.jobCardUid,
        created_datetime: '2026-11-01 08:00:00',
        source_ip: '198.51.100.7',
        external_reference: 'SITE-1001',
        payload: aJobCardPayload(),
      },
    ]);
  });

  it('returns only the 1000 most recent of 1,200 cards, with or without filters, in one answer or in pages', async () => {
    // Prepare: one card a minute from 2026-01-01 00:00 UTC, so all 1,200 fall on that day
    const user = await givenUser();
    const cards = await givenJobCards(user, 1200, { payload: { SiteReferenceNumber: 'BULK' } });
    const newest1000 = cards
      .slice(200)
      .reverse()
      .map((card) => card.jobCardUid);
    // Act
    const [all, dated, referenced] = await Promise.all([
      api.get('getJobCards', { api_key: user.key }),
      api.get('getJobCards', { api_key: user.key, from_date: '2026-01-01', to_date: '2026-01-01' }),
      api.get('getJobCards', { api_key: user.key, external_reference: 'BULK' }),
    ]);
    // Assess
    for (const res of [all, dated, referenced]) {
      expect(res.body.cnt).toBe(1000);
      expect(uids(res)).toEqual(newest1000);
    }
    for (const filter of [{}, { external_reference: 'BULK' }]) {
      const pages = [await api.get('getJobCards', { api_key: user.key, ...filter, limit: 400 })];
      while (pages.at(-1)?.body.next_cursor) {
        pages.push(await api.get('getJobCards', { api_key: user.key, ...filter, limit: 400, cursor: pages.at(-1)?.body.next_cursor }));
      }
      expect(pages.map((page) => page.body.cnt)).toEqual([400, 400, 200]);
      expect(pages.flatMap(uids)).toEqual(newest1000);
    }
    // ~10 s alone; the margin is for a full run, where every test file shares the one DynamoDB Local
  }, 60_000);

  it('answers an empty list to a user without cards', async () => {
    const user = await givenUser();
    const res = await api.get('getJobCards', { api_key: user.key });
    expect(res).toBeSuccess();
    expect(res.body).toMatchObject({ cnt: 0, job_cards: [] });
  });

  it("never shows another user's cards", async () => {
    // Prepare
    const owner = await givenUser();
    await givenJobCard(owner);
    const other = await givenUser();
    // Act
    const all = await api.get('getJobCards', { api_key: other.key });
    const byReference = await api.get('getJobCards', { api_key: other.key, external_reference: 'SITE-1001' });
    // Assess
    expect(all.body.cnt).toBe(0);
    expect(byReference.body.cnt).toBe(0);
  });
});

describe('getJobCards date bounds', () => {
  it("includes whole days in the user's offset, both ends inclusive", async () => {
    // Prepare: the user is at GMT+2, so their 2026-11-01 is 2026-10-31 22:00 to 2026-11-01 21:59:59.999 UTC
    const user = await givenUser({ gmtOffsetMinutes: 120 });
    const at = (createdAt: string) => givenJobCard(user, { ReferenceNumber: createdAt }, { createdAt });
    await at('2026-10-31T21:59:59.999Z');
    const firstInstant = await at('2026-10-31T22:00:00.000Z');
    const lastInstant = await at('2026-11-01T21:59:59.999Z');
    await at('2026-11-01T22:00:00.000Z');
    // Act
    const res = await api.get('getJobCards', { api_key: user.key, from_date: '2026-11-01', to_date: '2026-11-01' });
    // Assess
    expect(uids(res)).toEqual([lastInstant.jobCardUid, firstInstant.jobCardUid]);
    expect(res.body.job_cards.map((card: { created_datetime: string }) => card.created_datetime)).toEqual([
      '2026-11-01 23:59:59',
      '2026-11-01 00:00:00',
    ]);
  });

  it('reads the day edges of a user west of GMT', async () => {
    // Prepare: GMT-5, so 2026-11-01 is 05:00 UTC to 04:59:59.999 UTC the next day
    const user = await givenUser({ gmtOffsetMinutes: -300 });
    const before = await givenJobCard(user, {}, { createdAt: '2026-11-01T04:59:59.999Z' });
    const inside = await givenJobCard(user, {}, { createdAt: '2026-11-02T04:59:59.999Z' });
    const after = await givenJobCard(user, {}, { createdAt: '2026-11-02T05:00:00.000Z' });
    // Act
    const fromOnly = await api.get('getJobCards', { api_key: user.key, from_date: '2026-11-01' });
    const toOnly = await api.get('getJobCards', { api_key: user.key, to_date: '2026-11-01' });
    // Assess
    expect(uids(fromOnly)).toEqual([after.jobCardUid, inside.jobCardUid]);
    expect(uids(toOnly)).toEqual([inside.jobCardUid, before.jobCardUid]);
  });

  it('treats empty bounds as no bounds', async () => {
    const user = await givenUser();
    await givenJobCard(user);
    const res = await api.get('getJobCards', { api_key: user.key, from_date: '', to_date: '', external_reference: '' });
    expect(res.body.cnt).toBe(1);
  });

  it.each(['2026-13-01', '2026-02-30', '2026/11/01', '20261101', '01-11-2026', '2026-11-01 00:00:00', 'today', '٢٠٢٦-١١-٠١'])(
    'refuses from_date %j with the format message',
    async (fromDate) => {
      const user = await givenUser();
      const res = await api.get('getJobCards', { api_key: user.key, from_date: fromDate });
      expect(res).toBeError(400, FORMAT);
    },
  );

  it('refuses a malformed to_date with the same message', async () => {
    const user = await givenUser();
    const res = await api.get('getJobCards', { api_key: user.key, from_date: '2026-11-01', to_date: '1e30' });
    expect(res).toBeError(400, FORMAT);
  });

  it('refuses from_date after to_date', async () => {
    const user = await givenUser();
    const res = await api.get('getJobCards', { api_key: user.key, from_date: '2026-11-02', to_date: '2026-11-01' });
    expect(res).toBeError(400, 'from_date may not be after to_date');
  });
});

describe('getJobCards external_reference', () => {
  it('matches exactly: case-sensitive, no prefixes, combined with dates', async () => {
    // Prepare
    const user = await givenUser();
    const first = await givenJobCard(user, { SiteReferenceNumber: 'SITE-9' }, { createdAt: '2026-11-01T08:00:00.000Z' });
    const second = await givenJobCard(user, { ReferenceNumber: 'SITE-9' }, { createdAt: '2026-11-03T08:00:00.000Z' });
    await givenJobCard(user, { SiteReferenceNumber: 'site-9' });
    await givenJobCard(user, { SiteReferenceNumber: 'SITE-90' });
    // Act
    const all = await api.get('getJobCards', { api_key: user.key, external_reference: 'SITE-9' });
    const dated = await api.get('getJobCards', { api_key: user.key, external_reference: 'SITE-9', to_date: '2026-11-02' });
    // Assess
    expect(uids(all)).toEqual([second.jobCardUid, first.jobCardUid]);
    expect(all.body.job_cards[0]).toEqual({
      job_card_uid: second.jobCardUid,
      created_datetime: '2026-11-03 08:00:00',
      source_ip: '198.51.100.7',
      external_reference: 'SITE-9',
      payload: { ReferenceNumber: 'SITE-9' },
    });
    expect(uids(dated)).toEqual([first.jobCardUid]);
  });

  it('finds references with unicode and separators', async () => {
    const user = await givenUser();
    const card = await givenJobCard(user, { ReferenceNumber: 'Ünï#cödé/1 2' });
    const res = await api.get('getJobCards', { api_key: user.key, external_reference: 'Ünï#cödé/1 2' });
    expect(uids(res)).toEqual([card.jobCardUid]);
  });

  it('refuses a reference longer than any card can carry', async () => {
    const user = await givenUser();
    const res = await api.get('getJobCards', { api_key: user.key, external_reference: 'R'.repeat(101) });
    expect(res).toBeError(400, 'external_reference is too long (max 100 chars)');
  });

  it('refuses a POST with the method message', async () => {
    const user = await givenUser();
    const res = await api.post('getJobCards', { api_key: user.key });
    expect(res).toBeError(405, 'method not allowed, use GET');
  });

  it('refuses a locked-out or unknown key', async () => {
    const res = await api.get('getJobCards', { api_key: 'unknown' });
    expect(res).toBeError(401, 'unknown api key');
  });
});

describe('getJobCards payloads', () => {
  it("returns every card's payload exactly as sent", async () => {
    // Prepare
    const user = await givenUser();
    const content = describePayload(parsePayload(TRICKY_PAYLOAD_TEXT), 0);
    await Promise.all([1, 2, 3].map(() => addJobCard(user.userUid, content, '198.51.100.7')));
    // Act
    const res = await api.get('getJobCards', { api_key: user.key, external_reference: 'R-1' });
    // Assess
    expect(res.body.cnt).toBe(3);
    expect(payloadTextsIn(res.raw)).toBe(3);
  });
});
