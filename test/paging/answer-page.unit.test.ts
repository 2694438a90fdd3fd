import { describe, expect, it } from 'vitest';
import { toResponseJson, verbatimJsonObject } from '../../shared/contracts/verbatim-json.ts';
import { AnswerPage, type PageContext } from '../../shared/paging/answer-page.ts';

const aPageContext = (input: PageContext['input'] = {}): PageContext => ({
  user: { userUid: 7 },
  input,
  answer: { operation: 'getJobCards', budgetBytes: 100_000 },
});

/** A record with a stored payload, which counts in `writes` each time it is written. */
const aCountedRecord = (n: number) => {
  const record = {
    writes: 0,
    toJSON() {
      record.writes++;
      return { n, payload: verbatimJsonObject(`{"n": ${n}, "price": 1.50}`) };
    },
  };
  return record;
};

describe('AnswerPage records', () => {
  it('carries the records it took as the envelope would write them, each written once', async () => {
    // Prepare
    const page = await AnswerPage.open<number>(aPageContext());
    const records = [aCountedRecord(1), aCountedRecord(2)];
    // Act
    for (const [n, record] of records.entries()) page.add(record, n);
    const answer = toResponseJson({ cnt: page.size, items: page.records() });
    // Assess
    expect(answer).toBe('{"cnt":2,"items":[{"n":1,"payload":{"n": 1, "price": 1.50}},{"n":2,"payload":{"n": 2, "price": 1.50}}]}');
    expect(records.map((record) => record.writes)).toEqual([1, 1]);
  });

  it('carries only the records it took, and an empty list when it took none', async () => {
    // Prepare
    const [limited, empty] = await Promise.all([
      AnswerPage.open<number>(aPageContext({ limit: 2 })),
      AnswerPage.open<number>(aPageContext()),
    ]);
    // Act
    const taken = [1, 2, 3].map((n) => limited.add({ n }, n));
    // Assess
    expect(taken).toEqual([true, true, false]);
    expect(toResponseJson({ items: limited.records(), none: empty.records() })).toBe('{"items":[{"n":1},{"n":2}],"none":[]}');
  });

  it('reads as the records outside a response too', async () => {
    const page = await AnswerPage.open<number>(aPageContext());
    page.add({ n: 1 }, 1);
    expect(JSON.stringify({ items: page.records() })).toBe('{"items":[{"n":1}]}');
  });
});
