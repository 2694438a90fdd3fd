import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byTime, chunksOf, decodeChunk, encodePoints } from '../../shared/domain/tracking/history.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { aPositionRecord, positionOf } from '../support/position-builders.ts';

const IMEI = '356307042441013';

const position = (at: string, overrides: Record<string, unknown> = {}): Position => positionOf(aPositionRecord(IMEI, at, overrides));

describe('position history chunks', () => {
  it('give back every field of every point, one chunk per hour, oldest first', () => {
    // Prepare
    const points = [
      position('2026-11-01T07:00:05.250Z', {
        speed: null,
        ignition: true,
        odometer_km: 12.5,
        engine_hours: 3.25,
        driver_tag_id: 'TAG 1',
        ext_temp: -4,
      }),
      position('2026-11-01T06:59:59.000Z', { ignition: null, fuel_raw: null, device_type: null, config: null }),
      position('2026-11-01T06:10:00.000Z'),
    ];
    // Act
    const chunks = chunksOf(points);
    // Assess
    expect(chunks.map(({ hour, firstAt, lastAt, count }) => ({ hour, firstAt, lastAt, count }))).toEqual([
      { hour: '2026-11-01T06', firstAt: '2026-11-01T06:10:00.000Z', lastAt: '2026-11-01T06:59:59.000Z', count: 2 },
      { hour: '2026-11-01T07', firstAt: '2026-11-01T07:00:05.250Z', lastAt: '2026-11-01T07:00:05.250Z', count: 1 },
    ]);
    expect(chunks.flatMap((chunk) => decodeChunk(IMEI, chunk.hour, chunk.encoded))).toEqual(byTime(points));
  });

  it("give back each point's instant as toISOString writes it, within its hour or counted on past it", () => {
    const hours = fc.integer({
      min: Date.parse('0100-01-01T00:00:00.000Z') / 3_600_000,
      max: Date.parse('9999-12-31T00:00:00.000Z') / 3_600_000,
    });
    const offsets = fc.array(fc.integer({ min: 0, max: 3 * 3_600_000 }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(hours, offsets, (hourIndex, offsetsMs) => {
        // Prepare
        const start = hourIndex * 3_600_000;
        const hour = new Date(start).toISOString().slice(0, 13);
        const instants = [...new Set(offsetsMs)].sort((a, b) => a - b).map((offset) => new Date(start + offset).toISOString());
        // Act
        const decoded = decodeChunk(
          IMEI,
          hour,
          encodePoints(
            hour,
            instants.map((at) => position(at)),
          ),
        );
        // Assess
        expect(decoded.map((point) => point.gps_datetime)).toEqual(instants);
      }),
      { numRuns: 300 },
    );
  });

  it('name the same points the same way, whatever order they came in', () => {
    const points = [position('2026-11-01T06:00:00.000Z'), position('2026-11-01T06:00:30.000Z')];
    expect(chunksOf([...points].reverse())).toEqual(chunksOf(points));
    expect(chunksOf([points[0] as Position])[0]?.contentHash).not.toBe(chunksOf(points)[0]?.contentHash);
  });

  it('split an hour whose points would outgrow a DynamoDB item', () => {
    // the longest texts a record keeps (255 characters), a point a second
    const points = Array.from({ length: 1800 }, (_, n) =>
      position(new Date(Date.parse('2026-11-01T06:00:00.000Z') + n * 2_000).toISOString(), {
        config: 'x'.repeat(255),
        device_type: 'y'.repeat(255),
      }),
    );
    const chunks = chunksOf(points);
    expect(chunks.length).toBeGreaterThan(2);
    expect(Math.max(...chunks.map((chunk) => chunk.encoded.length))).toBeLessThan(300_000);
    expect(chunks.flatMap((chunk) => decodeChunk(IMEI, chunk.hour, chunk.encoded))).toEqual(points);
  });

  it('keep one point per instant, the first delivered', () => {
    const first = position('2026-11-01T06:00:00.000Z', { speed: 10 });
    expect(byTime([first, position('2026-11-01T06:00:00.000Z', { speed: 20 })])).toEqual([first]);
  });
});

describe('byTime', () => {
  /** Sorted by instant (stably), then the first point of each second: what byTime answers for any points. */
  const firstOfEachSecond = (points: readonly Position[]): Position[] => {
    const sorted = [...points].sort((a, b) => (a.gps_datetime < b.gps_datetime ? -1 : a.gps_datetime > b.gps_datetime ? 1 : 0));
    return sorted.filter(
      (point, n) => sorted.findIndex((other) => other.gps_datetime.slice(0, 19) === point.gps_datetime.slice(0, 19)) === n,
    );
  };
  const START = Date.parse('2026-11-01T06:00:00.000Z');

  it('orders any points and keeps the first of each second, whether they come in order or not', () => {
    // milliseconds within a few seconds, so that seconds repeat; sorted half the time, as history reads back
    const instants = fc.array(fc.integer({ min: 0, max: 8_000 }), { maxLength: 30 });
    fc.assert(
      fc.property(instants, fc.boolean(), (offsets, inOrder) => {
        // Prepare
        const ordered = inOrder ? [...new Set(offsets.map((ms) => Math.floor(ms / 1000) * 1000))].sort((a, b) => a - b) : offsets;
        const points = ordered.map((ms, n) => position(new Date(START + ms).toISOString(), { speed: n }));
        // Act
        const kept = byTime(points);
        // Assess
        expect(kept).toEqual(firstOfEachSecond(points));
        expect(kept).not.toBe(points);
      }),
      { numRuns: 500 },
    );
  });
});
