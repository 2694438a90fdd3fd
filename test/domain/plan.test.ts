/** One vehicle's batch as a plan (shared/domain/tracking/plan.ts), without DynamoDB. */
import { describe, expect, it } from 'vitest';
import { initialTrackState, type VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { planDetection, type VehicleHistory } from '../../shared/domain/tracking/plan.ts';
import type { Position } from '../../shared/domain/tracking/position.ts';
import { DEFAULT_DETECTION } from '../../shared/domain/tracking/settings.ts';
import { aPositionRecord, DEPOT, positionOf } from '../support/position-builders.ts';

const IMEI = '356000000000777';
const profile: VehicleProfile = { odometerAtStartKm: 1000, startHours: null, fuelCapacity: 100, fuelFactor: 1 };

const at = (minute: number): string => new Date(Date.parse('2026-11-03T06:00:00.000Z') + minute * 60_000).toISOString();

const point = (minute: number, overrides: Record<string, unknown> = {}): Position =>
  positionOf(aPositionRecord(IMEI, at(minute), overrides));

const history = (overrides: Partial<VehicleHistory> = {}): VehicleHistory => ({
  start: initialTrackState(profile),
  checkpointHour: undefined,
  stored: [],
  tail: [],
  hasStoredTail: false,
  ...overrides,
});

describe('planning a batch', () => {
  it('plans nothing when every point is already in the history (a replayed batch)', () => {
    const known = [point(0), point(1)];
    expect(planDetection(history({ tail: known, hasStoredTail: true }), known, profile, DEFAULT_DETECTION)).toBeUndefined();
  });

  it('keeps a few new points on the track item, and moves a tail that outgrows it into chunks', () => {
    const few = planDetection(history(), [point(0), point(1)], profile, DEFAULT_DETECTION);
    const many = planDetection(
      history(),
      Array.from({ length: 30 }, (_, n) => point(n)),
      profile,
      DEFAULT_DETECTION,
    );
    expect(few).toMatchObject({ chunks: [], tailChanged: true, tail: { hour: '2026-11-03T06' } });
    // no tail was stored and none is kept: the track item's tail does not change
    expect(many).toMatchObject({ tail: null, tailChanged: false });
    expect(many?.chunks.reduce((sum, chunk) => sum + chunk.count, 0)).toBe(30);
  });

  it("shows the newest counted point as live, never a fault, and counts the faults the batch's points decided", () => {
    const plan = planDetection(history(), [point(0), point(1), point(2, { latitude: 0, longitude: 0 })], profile, DEFAULT_DETECTION);
    expect(plan?.newest.gps_datetime).toBe(at(1));
    expect(plan?.newest.latitude).toBe(DEPOT.lat);
    expect(plan?.faults).toEqual({ 'zero fix': 1 });
  });

  it('does not count again a fault decided by a point stored before', () => {
    const stored = [point(0), point(1, { latitude: 0, longitude: 0 })];
    const plan = planDetection(history({ stored }), [point(2)], profile, DEFAULT_DETECTION);
    expect(plan?.run.ignored).toHaveLength(1);
    expect(plan?.faults).toEqual({});
  });
});
