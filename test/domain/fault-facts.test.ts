/**
 * Fault rules never eat facts (docs/positions-pipeline.md, "Device faults"): a fix ignored or set aside loses at most
 * its position, never an ignition change, a trip's start or end, or a stop. Each rule is tried on the records that
 * carry the facts — every ignition change of days of rounds from one bay, where each round starts and ends at exactly
 * the coordinates of the rounds before (a tracker's static navigation, 4 to 6 decimals) — and on trips without
 * ignition that come back to exactly where they stood.
 */
import { describe, expect, it } from 'vitest';
import { detect, initialTrackState } from '../../shared/domain/tracking/detector.ts';
import { sameSecondFaults } from '../../shared/domain/tracking/faults.ts';
import { DEFAULT_DETECTION, detectionSettings } from '../../shared/domain/tracking/settings.ts';
import { depotRoundsFleet, type SimulatedDay, type SimulatedRecord } from '../../simulator/index.ts';
import { parsed, profileOf } from '../support/simulated-positions.ts';

const M_PER_DEG = 111_320;

/** Whether a record changes the ignition from the one before it. */
const changesIgnition = (records: readonly SimulatedRecord[], n: number) => n > 0 && records[n]!.ignition !== records[n - 1]!.ignition;

/** The fix of the last record before `n` that was moving: a position the vehicle passed through on its way. */
function passedBefore(records: readonly SimulatedRecord[], n: number): SimulatedRecord {
  for (let k = n - 1; k >= 0; k--) if ((records[k]!.speed ?? 0) > 20) return records[k]!;
  return records[0]!;
}

/** Each fault class, made of the record that carries an ignition change (the records before it for a resent fix). */
const faults: Record<string, (records: readonly SimulatedRecord[], n: number) => SimulatedRecord[]> = {
  'a jump 30 km off': (records, n) => [{ ...records[n]!, longitude: records[n]!.longitude + 30_000 / M_PER_DEG }],
  'a fix at 0,0': (records, n) => [{ ...records[n]!, latitude: 0, longitude: 0 }],
  'a fix the device marks invalid, 2 km off': (records, n) => [
    { ...records[n]!, latitude: records[n]!.latitude + 2000 / M_PER_DEG, valid: false } as SimulatedRecord,
  ],
  'an old fix resent (stale)': (records, n) => {
    const old = passedBefore(records, n);
    return [{ ...records[n]!, latitude: old.latitude, longitude: old.longitude }];
  },
  'a fix thrown 200 m off its way (outlier)': (records, n) => [{ ...records[n]!, latitude: records[n]!.latitude + 200 / M_PER_DEG }],
  'a second fix of its second, 2 km off (same second)': (records, n) => [
    records[n]!,
    { ...records[n]!, latitude: records[n]!.latitude + 2000 / M_PER_DEG, ignition: !records[n]!.ignition },
  ],
};

/** As the pipeline takes them: one fix an instant (the first), then the detector. */
function detected(day: SimulatedDay, records: readonly SimulatedRecord[]) {
  const { kept } = sameSecondFaults([], records.map(parsed));
  return detect(initialTrackState(profileOf(day.vehicle)), kept, profileOf(day.vehicle), DEFAULT_DETECTION);
}

describe('fault rules on the records that carry ignition changes', () => {
  for (const decimals of [6, 5, 4]) {
    const [day] = depotRoundsFleet(1, '2026-10-05', 1, { decimals, seed: decimals })[0] as SimulatedDay[];
    const truth = (day as SimulatedDay).truth.trips.map((trip) => [new Date(trip.start).toISOString(), new Date(trip.stop).toISOString()]);

    for (const [fault, made] of Object.entries(faults))
      it(`keep every round's ignition on and off when each comes with ${fault}, at ${decimals} decimals`, () => {
        // Prepare
        const { records } = day as SimulatedDay;
        const faulty = records.flatMap((record, n) => (changesIgnition(records, n) ? made(records, n) : [record]));

        // Act
        const { trips } = detected(day as SimulatedDay, faulty);

        // Assess
        expect(truth.length).toBeGreaterThan(15);
        expect(trips.map((trip) => [trip.startTime, trip.stopTime])).toEqual(truth);
      });
  }
});

describe('fault rules on trips without ignition that come back to where they stood', () => {
  for (const decimals of [5, 4])
    it(`end each round where it stood, at ${decimals} decimals, no fix it passed taken for a resent one or an outlier`, () => {
      // Prepare: the rounds as a device without ignition wiring sends them
      const [day] = depotRoundsFleet(1, '2026-10-05', 1, { decimals, seed: 7 })[0] as SimulatedDay[];
      const { records, truth } = day as SimulatedDay;
      const unwired = records.map((record) => ({ ...record, ignition: null }));

      // Act
      const found = detect(
        initialTrackState(profileOf((day as SimulatedDay).vehicle)),
        unwired.map(parsed),
        profileOf((day as SimulatedDay).vehicle),
        detectionSettings({ useIgnition: false }),
      );

      // Assess
      expect(found.trips).toHaveLength(truth.trips.length);
      expect(found.ignored.filter(({ fault }) => fault === 'stale fix' || fault === 'outlier')).toEqual([]);
      truth.trips.forEach((trip, n) => {
        expect(Math.abs(Date.parse(found.trips[n]!.stopTime) - Date.parse(trip.stop))).toBeLessThanOrEqual(60_000);
      });
    });
});
