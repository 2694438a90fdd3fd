import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateTime, instantMs } from '../../shared/domain/time.ts';

/** The calendar's reading of an instant, as formatDateTime did it for every instant before it read stored text as is. */
const throughTheCalendar = (instant: string | Date, offsetMinutes = 0): string =>
  new Date(new Date(instant).getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

const FIRST = Date.parse('0000-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

describe('formatDateTime', () => {
  it('reads every stored instant at UTC as the calendar does', () => {
    fc.assert(
      fc.property(fc.integer({ min: FIRST, max: LAST }), (ms) => {
        const stored = new Date(ms).toISOString();
        expect(formatDateTime(stored)).toBe(throughTheCalendar(stored));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    '2026-11-29T23:59:59.999Z',
    '2026-11-30T00:00:00.000Z',
    '2026-12-31T12:00:00.000Z',
    '2024-02-29T06:00:00.000Z',
    '2000-02-29T06:00:00.000Z',
    '0000-02-29T06:00:00.000Z',
  ])("reads %s, a stored instant on one of its month's last days, as the calendar does", (stored) => {
    expect(formatDateTime(stored)).toBe(throughTheCalendar(stored));
  });

  it("reads every instant in any offset as the calendar does, the day's text remembered or not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: FIRST - 86_400_000, max: LAST + 86_400_000 }),
        fc.integer({ min: -24 * 60, max: 24 * 60 }),
        fc.boolean(),
        (ms, offsetMinutes, asText) => {
          const instant = asText && ms >= FIRST && ms <= LAST ? new Date(ms).toISOString() : new Date(ms);
          expect(formatDateTime(instant, offsetMinutes)).toBe(throughTheCalendar(instant, offsetMinutes));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('reads the times of one day one after another as the calendar does', () => {
    // Prepare
    const start = Date.parse('2026-11-28T21:59:58.500Z');
    const times = Array.from({ length: 7_300 }, (_, second) => new Date(start + second * 1000).toISOString());
    // Act
    const written = times.map((time) => formatDateTime(time, 120));
    // Assess
    expect(written).toEqual(times.map((time) => throughTheCalendar(time, 120)));
    expect(written.slice(0, 3)).toEqual(['2026-11-28 23:59:58', '2026-11-28 23:59:59', '2026-11-29 00:00:00']);
  });

  it('throws on no instant at all, as the calendar does', () => {
    expect(() => formatDateTime('not a time', 60)).toThrow(RangeError);
  });

  it('shifts by the offset, for a stored text and a Date alike', () => {
    expect(formatDateTime('2026-11-28T22:30:05.120Z', 120)).toBe('2026-11-29 00:30:05');
    expect(formatDateTime(new Date('2026-11-28T22:30:05.120Z'), -60)).toBe('2026-11-28 21:30:05');
  });

  it.each([
    ['2026-02-30T08:00:00.000Z', '2026-03-02 08:00:00'],
    ['2026-04-31T08:00:00.000Z', '2026-05-01 08:00:00'],
    ['2026-11-31T08:00:00.000Z', '2026-12-01 08:00:00'],
    ['2026-02-29T08:00:00.000Z', '2026-03-01 08:00:00'],
    ['1900-02-29T08:00:00.000Z', '1900-03-01 08:00:00'],
    ['2026-11-28T08:00:00Z', '2026-11-28 08:00:00'],
    ['2026-11-28T08:00:00.000+02:00', '2026-11-28 06:00:00'],
  ])('reads %s, which is no stored instant, as the calendar does: %s', (text, expected) => {
    expect(formatDateTime(text)).toBe(expected);
    expect(formatDateTime(text)).toBe(throughTheCalendar(text));
  });
});

describe('instantMs', () => {
  it('reads every instant as Date.parse does, the same instants again and again past what it remembers', () => {
    // Prepare
    const instants = fc.array(fc.integer({ min: FIRST, max: LAST }), { minLength: 300, maxLength: 600 });
    fc.assert(
      fc.property(instants, (times) => {
        const texts = times.map((time) => new Date(time).toISOString());
        // Act
        const read = [...texts, ...texts.toReversed()].map(instantMs);
        // Assess
        expect(read).toEqual([...times, ...times.toReversed()]);
      }),
      { numRuns: 20 },
    );
  });

  it('reads a text that is no instant as NaN, as Date.parse does', () => {
    expect(instantMs('not a time')).toBeNaN();
    expect(instantMs('not a time')).toBeNaN();
  });
});
