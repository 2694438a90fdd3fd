import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toResponseJson, verbatimJsonObject } from '../../shared/contracts/verbatim-json.ts';
import { AnswerPage, type PageContext, recordCost } from '../../shared/paging/answer-page.ts';
import { openCursor } from '../../shared/paging/cursor.ts';

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

describe('AnswerPage.reader', () => {
  it('tells the read the most records the page takes: its limit, the cap left, or no bound at all', async () => {
    // Prepare
    const [limited, capped, unbounded] = await Promise.all([
      AnswerPage.open<Record<string, string>>(aPageContext({ limit: 25 })),
      AnswerPage.open<Record<string, string>>(aPageContext(), { maxTotal: 1000 }),
      AnswerPage.open<Record<string, string>>(aPageContext()),
    ]);
    // Act
    const most = [limited, capped, unbounded].map((page) => page.reader((record: number) => record).most);
    // Assess
    expect(most).toEqual([25, 1000, Number.POSITIVE_INFINITY]);
  });
});

describe('recordCost', () => {
  /** A record's share of the Lambda response, as Lambda's own JSON.stringify of the response writes it. */
  const asLambdaWritesIt = (record: unknown): number => Buffer.byteLength(JSON.stringify(toResponseJson(record)), 'utf8') - 1;

  it('counts any record as Lambda writes it, control characters, quotes, backslashes and lone surrogates included', () => {
    const texts = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', '\\', '\n', '\u0001', '\ud800', '\udc00', 'é', '😀'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(fc.array(texts, { maxLength: 4 }), (notes) => {
        const record = { notes, n: notes.length };
        expect(recordCost(record)).toBe(asLambdaWritesIt(record));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a stored payload written over lines, whose raw newlines the response escapes', () => {
    const record = { payload: verbatimJsonObject('{\n\t"a": "b",\r\n "c": [1, 2]\n}') };
    expect(recordCost(record)).toBe(asLambdaWritesIt(record));
  });
});

describe('AnswerPage budget', () => {
  it('takes exactly the records and frames whose bytes, counted one by one, fit the budget, however near they come', async () => {
    // characters that cost a record's bytes most: escaped, or 2 to 4 bytes in UTF-8
    const costly = fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u00e9', '\u20ac', '\ud800', '\ud83d\ude00');
    const note = fc.oneof(
      fc.string({ unit: costly, maxLength: 40 }),
      fc.tuple(costly, fc.nat(40)).map(([character, times]) => character.repeat(times)),
    );
    const aRecord = fc.record({ n: fc.integer(), note });
    const steps = fc.array(fc.record({ frame: fc.boolean(), value: aRecord }), { minLength: 1, maxLength: 14 });
    // a budget within a few bytes of what the steps up to one of them cost
    const nearAStep = fc.record({ step: fc.nat(), bytes: fc.integer({ min: -40, max: 40 }) });
    await fc.assert(
      fc.asyncProperty(steps, nearAStep, async (plan, near) => {
        // Prepare
        const spentAfter = plan.map((_, n) => plan.slice(0, n + 1).reduce((sum, { value }) => sum + recordCost(value), 0));
        const budgetBytes = Math.max(1, (spentAfter[near.step % plan.length] as number) + near.bytes);
        const page = await AnswerPage.open<number>({
          ...aPageContext({ limit: 1_000 }),
          answer: { operation: 'getJobCards', budgetBytes },
        });
        const fitting = spentAfter.findIndex((spent) => spent > budgetBytes);
        // Act
        let taken = 0;
        try {
          while (taken < plan.length) {
            const { frame, value } = plan[taken] as (typeof plan)[number];
            if (!(frame ? page.addFrame(value, taken) : page.add(value, taken))) break;
            taken++;
          }
        } catch {
          // the first step did not fit an empty page: the page refuses rather than answering nothing
        }
        // Assess
        expect(taken).toBe(fitting < 0 ? plan.length : fitting);
      }),
      { numRuns: 600 },
    );
  });
});

describe('AnswerPage.addAll', () => {
  /** What a page shows of the records it took: how many, the answer's text, whether more follow and from where. */
  async function outcomeOf(page: AnswerPage<number>, taking: () => number) {
    let taken: number | string;
    try {
      taken = taking();
    } catch (error) {
      taken = (error as Error).message;
    }
    const { next_cursor: cursor } = await page.nextCursor();
    const scope = { operation: 'getJobCards', userUid: 7, filters: {} };
    return {
      taken,
      size: page.size,
      hasMore: page.hasMore,
      answer: toResponseJson({ items: page.records() }),
      resumesAt: cursor === undefined ? undefined : await openCursor<number>(scope, cursor),
    };
  }

  it('takes the same records as add one by one, whatever the limit, the budget and what the page took before', async () => {
    const records = fc.array(fc.record({ n: fc.integer(), note: fc.string({ unit: 'binary', maxLength: 12 }) }), { maxLength: 12 });
    const pages = fc.record({
      limit: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
      budgetBytes: fc.integer({ min: 1, max: 600 }),
      before: fc.integer({ min: 0, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(records, pages, async (items, { limit, budgetBytes, before }) => {
        // Prepare: two pages alike, each having taken the same records first
        const open = async () => {
          const page = await AnswerPage.open<number>({ ...aPageContext({ limit }), answer: { operation: 'getJobCards', budgetBytes } });
          try {
            for (let n = 0; n < before; n++) if (!page.add({ before: n }, -n)) break;
          } catch {
            return undefined; // the page refused what it took first: nothing left to compare
          }
          return page;
        };
        const [oneByOne, atOnce] = [await open(), await open()];
        fc.pre(oneByOne !== undefined && atOnce !== undefined);
        // Act
        const byAdd = await outcomeOf(oneByOne, () => {
          const refused = items.findIndex((item, n) => !oneByOne.add(item, n));
          return refused < 0 ? items.length : refused;
        });
        const byAddAll = await outcomeOf(atOnce, () => atOnce.addAll(items, (n) => n));
        // Assess
        expect(byAddAll).toEqual(byAdd);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    [0, 3],
    [-1, 2],
  ])('takes records whose bytes fill the budget %i bytes short of them: %i of 3', async (short, expected) => {
    // Prepare
    const records = [{ n: 1, note: 'a "quoted" word' }, { n: 2, note: 'caf\u00e9 \\ back' }, { n: 3 }];
    const budgetBytes = records.reduce((sum, record) => sum + recordCost(record), 0) + short;
    const page = await AnswerPage.open<number>({ ...aPageContext({ limit: 10 }), answer: { operation: 'getJobCards', budgetBytes } });
    // Act
    const taken = page.addAll(records, (n) => n);
    // Assess
    expect(taken).toBe(expected);
    expect(page.hasMore).toBe(expected < records.length);
  });
});
