/** The device-fault rules (shared/domain/tracking/faults.ts) and the detector with faults injected, without DynamoDB. */
import { describe, expect, it } from 'vitest';
import { type DetectedFill, type DetectedTrip, detect, initialTrackState } from '../../shared/domain/tracking/detector.ts';
import {
  arrivalFault,
  fixFault,
  fuelReadingFault,
  GPS_ROLLOVER_MS,
  type IgnoredReading,
  jumpVerdict,
  NO_PASSED_FIXES,
  odometerStep,
  outlierFix,
  pointFaults,
  rememberFix,
  sameSecondFaults,
  staleFix,
} from '../../shared/domain/tracking/faults.ts';
import { DEFAULT_DETECTION, detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { demoFleetDay, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { deviceFaults, midTrip, parkedAfter } from '../support/device-faults.ts';
import { positionOf } from '../support/position-builders.ts';

const DATE = '2026-11-01';
const WEEK_MS = 7 * 86_400_000;
const ARRIVAL = Date.parse('2026-11-01T12:00:00Z');
const [truck, van, bakkie] = demoFleetDay(DATE, ['356307042441013', '356307042441021', '356307042441039'], 3) as [
  SimulatedDay,
  SimulatedDay,
  SimulatedDay,
];

function detectDay(day: SimulatedDay, records: readonly SimulatedRecord[]) {
  const profile = {
    odometerAtStartKm: day.vehicle.odometerKm,
    startHours: null,
    fuelCapacity: day.vehicle.fuelCapacity,
    fuelFactor: day.vehicle.fuelFactor,
  };
  const settings = detectionSettings(day.vehicle.ignitionWired ? {} : { useIgnition: false });
  return detect(initialTrackState(profile), records.map(positionOf), profile, settings);
}

const relativeError = (measured: number, truth: number): number => Math.abs(measured - truth) / truth;
const faultsOf = (ignored: readonly IgnoredReading[]) => [...new Set(ignored.map(({ fault }) => fault))];

/** Trips within 2 %, fills within 3 % of the simulator's truth; the odometer where the day ended. */
function expectTruth(day: SimulatedDay, found: { trips: DetectedTrip[]; fills: DetectedFill[]; state: { odometerKm: number } }) {
  expect(found.trips).toHaveLength(day.truth.trips.length);
  day.truth.trips.forEach((truth, n) => {
    expect(relativeError((found.trips[n] as DetectedTrip).distanceKm, truth.distanceKm)).toBeLessThanOrEqual(0.02);
  });
  expect(found.fills).toHaveLength(day.truth.fills.length);
  day.truth.fills.forEach((truth, n) => {
    expect(relativeError((found.fills[n] as DetectedFill).fillQty, truth.litres)).toBeLessThanOrEqual(0.03);
  });
  expect(Math.abs(found.state.odometerKm - day.end.odometerKm)).toBeLessThanOrEqual(0.02 * (day.end.odometerKm - day.vehicle.odometerKm));
}

describe('the arrival rule', () => {
  it('tolerates a point up to the future tolerance after its arrival, and sets aside one beyond it as in the future', () => {
    expect(arrivalFault('2026-11-01T12:10:00.000Z', ARRIVAL, 600, WEEK_MS)).toBeNull();
    expect(arrivalFault('2026-11-01T12:10:01.000Z', ARRIVAL, 600, WEEK_MS)).toBe('in the future');
    expect(arrivalFault('2031-11-22T08:00:00.000Z', ARRIVAL, 600, WEEK_MS)).toBe('in the future');
  });

  it('sets aside a point older than the lateness window as too late, a GPS week rollover point among them', () => {
    expect(arrivalFault('2026-10-25T12:00:00.000Z', ARRIVAL, 600, WEEK_MS)).toBeNull();
    expect(arrivalFault('2026-10-25T11:59:59.000Z', ARRIVAL, 600, WEEK_MS)).toBe('too late');
    expect(arrivalFault(new Date(ARRIVAL - GPS_ROLLOVER_MS).toISOString(), ARRIVAL, 600, WEEK_MS)).toBe('too late');
  });
});

describe('the fix rules', () => {
  it('ignores a fix at 0,0 and one the device marks invalid or made from no satellites', () => {
    expect(fixFault({ latitude: 0, longitude: 0, valid: null, satellites: null })).toBe('zero fix');
    expect(fixFault({ latitude: -26.2, longitude: 28, valid: false, satellites: 9 })).toBe('invalid fix');
    expect(fixFault({ latitude: -26.2, longitude: 28, valid: null, satellites: 0 })).toBe('invalid fix');
    expect(fixFault({ latitude: -26.2, longitude: 28, valid: true, satellites: 7 })).toBeNull();
    expect(fixFault({ latitude: 0, longitude: 28, valid: null, satellites: null })).toBeNull();
  });

  it('calls a fix a jump when reaching it needs more than the maximum speed, and a run of agreeing ones a relocation', () => {
    const last = { at: '2026-11-01T06:00:00.000Z', lat: -26.2, lng: 28 };
    const far = (seconds: number) => ({ at: new Date(Date.parse(last.at) + seconds * 1000).toISOString(), lat: -25.8, lng: 28 });
    expect(jumpVerdict(last, [], { ...far(30), lat: -26.199 }, 250)).toEqual({ verdict: 'counted' });
    const first = jumpVerdict(last, [], far(30), 250);
    expect(first.verdict).toBe('jump');
    const second = jumpVerdict(last, first.verdict === 'jump' ? first.run : [], far(60), 250);
    expect(second).toEqual({ verdict: 'jump', run: [far(30), far(60)] });
    expect(jumpVerdict(last, second.verdict === 'jump' ? second.run : [], far(90), 250)).toEqual({ verdict: 'relocated' });
  });
});

describe('the rules for fixes resent or given one time', () => {
  const fix = (at: string, lat: number) => ({ at: `2026-11-01T06:00:${at}.000Z`, lat, lng: 28 });
  const record = (at: string, lat: number) => ({ gps_datetime: `2026-11-01T06:00:${at}.000Z`, latitude: lat, longitude: 28 });

  const passedThrough = (fixes: ReturnType<typeof fix>[]) =>
    fixes.reduce((memory, each, n) => rememberFix(memory, fixes[n - 1] ?? null, each), NO_PASSED_FIXES);

  it('calls a fix a stale one when it is exactly one the vehicle passed through lately, behind it, away from its last', () => {
    const driven = [fix('00', -26), fix('05', -26.001), fix('10', -26.002)];
    const memory = passedThrough(driven);
    expect(staleFix(driven[2]!, memory, fix('15', -26.001))).toBe(true);
    expect(staleFix(driven[2]!, memory, fix('15', -26.0010001))).toBe(false);
    // back at the last fix, or a few metres from it: a standing vehicle's jitter
    expect(staleFix(driven[2]!, memory, fix('15', -26.002))).toBe(false);
    expect(staleFix(fix('10', -26.00105), memory, fix('15', -26.001))).toBe(false);
  });

  it('never calls stale a fix where the vehicle stood, one ahead of it after it turned round, or one older than ten minutes', () => {
    // stood at -26 (two fixes there), drove south, and is back at exactly the spot where it stood
    const stood = [fix('00', -26), fix('05', -26), fix('10', -26.001), fix('15', -26.002)];
    expect(staleFix(stood[3]!, passedThrough(stood), fix('20', -26))).toBe(false);
    // drove south, turned round: heading north, the fix it passed on the way out lies ahead
    const turned = [fix('00', -26), fix('05', -26.001), fix('10', -26.003), fix('15', -26.002)];
    expect(staleFix(turned[3]!, passedThrough(turned), fix('20', -26.001))).toBe(false);
    const driven = [fix('00', -26), fix('05', -26.001), fix('10', -26.002)];
    expect(staleFix(driven[2]!, passedThrough(driven), { at: '2026-11-01T06:10:06.000Z', lat: -26.001, lng: 28 })).toBe(false);
  });

  it('marks stale fixes in a stretch of history as detection ignores them, once the next fix shows the vehicle went on', () => {
    const positionsOf = (fixes: Array<[string, number]>) =>
      fixes.map(([at, lat]) => positionOf({ imei: '356307042441013', ...record(at, lat) }));
    const resent = positionsOf([
      ['00', -26],
      ['05', -26.001],
      ['10', -26.002],
      ['15', -26.001],
      ['20', -26.003],
    ]);
    // the vehicle is next seen at the spot: it was there (a U-turn)
    const there = positionsOf([
      ['00', -26],
      ['05', -26.001],
      ['10', -26.002],
      ['15', -26.001],
      ['20', -26.0009],
    ]);
    expect(pointFaults(resent, 250)).toEqual([null, null, null, 'stale fix', null]);
    expect(pointFaults(there, 250)).toEqual([null, null, null, null, null]);
  });

  it('calls a fix an outlier candidate when it is farther than the pace since the fix before, speeding up, can take it', () => {
    // 42 m every 5 s northward (30 km/h)
    const unread = { last: null, fix: null };
    const driving = [fix('00', -26), fix('05', -26.00038)];
    const east = (metres: number) => ({ ...fix('10', -26.00076), lng: 28 + metres / 100_000 });
    expect(outlierFix(driving[0]!, driving[1]!, east(200), unread)).toBe(true);
    // on its way: 42 m on, or 60 m on (speeding up); and a fix under 80 m from the last, whatever its pace
    expect(outlierFix(driving[0]!, driving[1]!, fix('10', -26.00076), unread)).toBe(false);
    expect(outlierFix(driving[0]!, driving[1]!, fix('10', -26.00092), unread)).toBe(false);
    expect(outlierFix(driving[0]!, driving[1]!, east(60), unread)).toBe(false);
    // its own speed reading says it covers 200 m (144 km/h)
    expect(outlierFix(driving[0]!, driving[1]!, east(200), { last: null, fix: 144 })).toBe(false);
    // both read 30 km/h: 42 m is the step, 204 m is no step of theirs
    expect(outlierFix(driving[0]!, driving[1]!, east(200), { last: 30, fix: 30 })).toBe(true);
    expect(outlierFix(driving[0]!, driving[1]!, fix('10', -26.00076), { last: 30, fix: 30 })).toBe(false);
  });

  it('never calls an outlier a departure from standing at 15 s, nor any fix after a step of more than 20 s', () => {
    const standing = [fix('00', -26), fix('15', -26.00001)];
    // 92 m in 15 s from standing: 0.8 m/s² on average
    expect(outlierFix(standing[0]!, standing[1]!, fix('30', -26.00084), { last: null, fix: null })).toBe(false);
    // the same departure read by speed: 0, then 40 km/h
    expect(outlierFix(standing[0]!, standing[1]!, fix('30', -26.00084), { last: 0, fix: 40 })).toBe(false);
    const sparse = [fix('00', -26), { at: '2026-11-01T06:00:30.000Z', lat: -26.0003, lng: 28 }];
    expect(outlierFix(sparse[0]!, sparse[1]!, { at: '2026-11-01T06:00:35.000Z', lat: -26.0003, lng: 28.002 }, { last: 0, fix: 0 })).toBe(
      false,
    );
  });

  it('marks an outlier in a stretch of history as detection ignores it, once the next fix comes back to the way', () => {
    const positionsOf = (fixes: Array<[string, number, number]>) =>
      fixes.map(([at, lat, lng]) => positionOf({ imei: '356307042441013', ...record(at, lat), longitude: lng }));
    const thrown = positionsOf([
      ['00', -26, 28],
      ['05', -26.00038, 28],
      ['10', -26.00076, 28.002],
      ['15', -26.00114, 28],
    ]);
    // the vehicle is next seen beyond the fix: it went there (a turn)
    const turned = positionsOf([
      ['00', -26, 28],
      ['05', -26.00038, 28],
      ['10', -26.00076, 28.002],
      ['15', -26.00076, 28.0024],
    ]);
    expect(pointFaults(thrown, 250)).toEqual([null, null, 'outlier', null]);
    expect(pointFaults(turned, 250)).toEqual([null, null, null, null]);
  });

  it('keeps the first fix of a second, drops the same fix again and sets aside one at another place', () => {
    const known = [record('00', -26)];
    const arrived = [
      record('00', -26.00001),
      record('00', -26.01),
      record('05', -26.001),
      { ...record('05', -26.001), gps_datetime: '2026-11-01T06:00:05.400Z' },
    ];
    const { kept, elsewhere } = sameSecondFaults(known, arrived);
    expect(kept).toEqual([arrived[2]]);
    expect(elsewhere).toEqual([arrived[1]]);
  });

  it('keeps a fix earlier in its second than the one stored, whichever arrived first: it takes its place', () => {
    const known = [{ ...record('05', -26.001), gps_datetime: '2026-11-01T06:00:05.700Z' }];
    const arrived = [{ ...record('05', -26.00102), gps_datetime: '2026-11-01T06:00:05.200Z' }];
    const { kept, elsewhere } = sameSecondFaults(known, arrived);
    expect(kept).toEqual(arrived);
    expect(elsewhere).toEqual([]);
  });
});

describe('the reading rules', () => {
  it('calls a fuel reading of 0 or beyond the capacity margin a dropout', () => {
    expect(fuelReadingFault(0, 80, DEFAULT_DETECTION)).toBe('fuel dropout');
    expect(fuelReadingFault(88.1, 80, DEFAULT_DETECTION)).toBe('fuel dropout');
    expect(fuelReadingFault(88, 80, DEFAULT_DETECTION)).toBeNull();
    expect(fuelReadingFault(500, null, DEFAULT_DETECTION)).toBeNull();
  });

  it('counts the odometer as deltas, starting a new base on a fall or a step faster than the maximum speed', () => {
    const previous = { km: 1000, at: '2026-11-01T06:00:00.000Z' };
    const later = (km: number) => ({ km, at: '2026-11-01T06:01:00.000Z' });
    expect(odometerStep(previous, later(1001.5), 0.9, DEFAULT_DETECTION)).toEqual({ km: 1.5, fault: null });
    expect(odometerStep(previous, later(0.2), 0.9, DEFAULT_DETECTION)).toEqual({ km: 0.9, fault: 'odometer reset' });
    expect(odometerStep(previous, later(1006), 0.9, DEFAULT_DETECTION)).toEqual({ km: 0.9, fault: 'odometer jump' });
    expect(odometerStep(null, later(5), 0.9, DEFAULT_DETECTION)).toEqual({ km: 0, fault: null });
  });
});

describe('a demo day with device faults, detected in one piece', () => {
  it.each([
    ['the truck (ignition, odometer)', truck],
    ['the van (ignition, no odometer)', van],
    ['the bakkie (no ignition, no odometer)', bakkie],
  ])('finds the true trips, fills and odometer of %s', (_name, day) => {
    expectTruth(day, detectDay(day, day.records));
  });

  it.each([
    ['three 0,0 fixes', (day: SimulatedDay) => deviceFaults.zeroFixes(day.records, midTrip(day, 0), 3), 'zero fix'],
    [
      'two fixes marked invalid 30 km off',
      (day: SimulatedDay) => deviceFaults.invalidFixes(day.records, midTrip(day, 1), 2, 30),
      'invalid fix',
    ],
    ['one fix 50 km off', (day: SimulatedDay) => deviceFaults.jumps(day.records, midTrip(day, 0), 1, 50), 'speed jump'],
    ['two fixes 8 km off', (day: SimulatedDay) => deviceFaults.jumps(day.records, midTrip(day, 1), 2, 8), 'speed jump'],
  ] as const)('ignores %s during a trip, with or without a device odometer', (_name, inject, fault) => {
    for (const day of [truck, van, bakkie]) {
      const found = detectDay(day, inject(day));
      expectTruth(day, found);
      expect(faultsOf(found.ignored)).toContain(fault);
    }
  });

  it.each([
    ['four readings of 0', 4, () => 0],
    ['three readings a quarter of the level', 3, (level: number) => level / 4],
    ['two readings beyond the tank', 2, (_level: number, capacity: number) => capacity * 1.5],
  ])('makes no fill and no fuel used of %s while parked', (_name, count, raw) => {
    for (const day of [truck, van, bakkie]) {
      const index = parkedAfter(day, 0);
      const level = (day.records[index] as SimulatedRecord).fuel_raw;
      const found = detectDay(day, deviceFaults.fuelReadings(day.records, index, count, raw(level, day.vehicle.fuelCapacity)));
      const clean = detectDay(day, day.records);
      expectTruth(day, found);
      found.fills.forEach((fill, n) => {
        const used = fill.sincePreviousFill?.fuelUsed ?? 0;
        expect(Math.abs(used - (clean.fills[n]?.sincePreviousFill?.fuelUsed ?? 0))).toBeLessThanOrEqual(0.03 * Math.max(used, 1));
      });
      expect(faultsOf(found.ignored)).toEqual(['fuel dropout']);
    }
  });

  it.each([
    ['restarts from 0 midday', (records: readonly SimulatedRecord[]) => deviceFaults.odometerRestart(records, midTrip(truck, 3))],
    [
      'restarts from 5,000 km while parked',
      (records: readonly SimulatedRecord[]) => deviceFaults.odometerRestart(records, parkedAfter(truck, 1), 5000),
    ],
    [
      'jumps 3,000 km for two readings',
      (records: readonly SimulatedRecord[]) => deviceFaults.odometerSpike(records, midTrip(truck, 2), 2, 3000),
    ],
  ])('carries the odometer on when the device odometer %s', (_name, inject) => {
    const found = detectDay(truck, inject(truck.records));
    expectTruth(truck, found);
    for (const trip of found.trips) expect(trip.distanceKm).toBeGreaterThanOrEqual(0);
    expect(faultsOf(found.ignored).every((fault) => fault.startsWith('odometer'))).toBe(true);
  });
});
