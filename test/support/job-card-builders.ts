/** Job cards made through the store, as addJobCard makes them, with a chosen creation time. */

import { parsePayload } from '../../shared/domain/job-card/parse.ts';
import { describePayload, type JobCard } from '../../shared/domain/job-card/rules.ts';
import { addJobCard } from '../../shared/store/job-cards.ts';
import type { TestUser } from './builders.ts';

export function aJobCardPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    CompanyId: 'ACME',
    Consignor: 'ACME Distribution',
    Consignee: 'Corner Store',
    SiteName: 'Corner Store Rosebank',
    SiteReferenceNumber: 'SITE-1001',
    SiteAddress: { Line1: '12 Main Road', Suburb: 'Rosebank', City: 'Johannesburg', PostalCode: '2196' },
    DueDate: '2026-11-02T10:00:00+02:00',
    ReferenceNumber: 'REF-77',
    Instructions: 'Deliver to the loading bay',
    Latitude: -26.1452,
    Longitude: 28.0437,
    IsDelivery: 1,
    IsPriority: 0,
    PlannedSequence: 3,
    ...overrides,
  };
}

export interface JobCardOptions {
  createdAt?: string;
  sourceIp?: string;
}

export function givenJobCard(
  user: TestUser,
  payload = aJobCardPayload(),
  { createdAt, sourceIp = '198.51.100.7' }: JobCardOptions = {},
): Promise<JobCard> {
  const content = describePayload(parsePayload(JSON.stringify(payload)), user.gmtOffsetMinutes);
  return addJobCard(user.userUid, content, sourceIp, createdAt);
}

/**
 * `count` cards one minute apart from `firstCreatedAt`, written in parallel batches; returned oldest first.
 * Batches of 25: the store's SDK client keeps production's 1 s connection timeout, which a hundred parallel
 * connections to a DynamoDB Local shared by a full test run can miss.
 */
const PARALLEL_WRITES = 25;

export async function givenJobCards(
  user: TestUser,
  count: number,
  { firstCreatedAt = '2026-01-01T00:00:00.000Z', payload = aJobCardPayload() } = {},
): Promise<JobCard[]> {
  const start = Date.parse(firstCreatedAt);
  const cards: JobCard[] = [];
  for (let offset = 0; offset < count; offset += PARALLEL_WRITES) {
    const batch = Array.from({ length: Math.min(PARALLEL_WRITES, count - offset) }, (_, i) => offset + i);
    cards.push(
      ...(await Promise.all(batch.map((n) => givenJobCard(user, payload, { createdAt: new Date(start + n * 60_000).toISOString() })))),
    );
  }
  return cards;
}

/**
 * A payload whose text any parse-and-serialise would change: a 20-digit integer, trailing zeros, an exponent,
 * keys JavaScript would reorder ("2" before the others), \u escapes, nested arrays and free spacing.
 */
export const TRICKY_PAYLOAD_TEXT =
  '{ "zeta": 12345678901234567890, "Amount": 1.50, "2": "index-like key", ' +
  String.raw`"SiteName": "Caf\u00e9 \ud83d\ude9a",
  "ReferenceNumber": "R-\u0031", "Nested": [[1, 2.0, [3e2, -0.0]], {"b": [], "a": null}], "alpha": 1E3 }`;

/** The response's own bytes hold the payload text exactly as sent, however many times it appears. */
export function payloadTextsIn(raw: Buffer): number {
  return raw.toString('utf8').split(`"payload":${TRICKY_PAYLOAD_TEXT}`).length - 1;
}
