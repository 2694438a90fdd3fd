/** The fuel.dropped step (shared/domain/events/fuel-drops.ts) through the detector, without DynamoDB. */
import { describe, expect, it } from 'vitest';
import { type DetectedDrop, initialFuelDropState, trackFuelDrop } from '../../../shared/domain/events/fuel-drops.ts';
import { eventSettings } from '../../../shared/domain/events/settings.ts';
import { initialTrackState } from '../../../shared/domain/tracking/detector.ts';
import { detectByHour } from '../../../shared/domain/tracking/hourly-run.ts';
import { detectionSettings } from '../../../shared/domain/tracking/settings.ts';
import { demoFleetDay, demoTheftDay, fleetDay, type SimulatedDay } from '../../../simulator/index.ts';
import { deviceFaults, withRecords } from '../../support/device-faults.ts';
import { positionOf } from '../../support/position-builders.ts';

const DATE = '2026-11-01';
const IMEIS = ['356307042441013', '356307042441021', '356307042441039'];

function dropsOf(day: SimulatedDay): DetectedDrop[] {
  const { vehicle } = day;
  const profile = {
    odometerAtStartKm: vehicle.odometerKm,
    startHours: null,
    fuelCapacity: vehicle.fuelCapacity,
    fuelFactor: vehicle.fuelFactor,
  };
  const settings = detectionSettings(vehicle.ignitionWired ? {} : { useIgnition: false });
  const points = day.records.map(positionOf);
  return detectByHour(initialTrackState(profile), points, profile, settings, eventSettings({ fuelCapacity: vehicle.fuelCapacity })).drops;
}

const minutesApart = (a: string, b: string): number => Math.abs(Date.parse(a) - Date.parse(b)) / 60_000;

describe('fuel drops through the detector', () => {
  it.each([1, 2, 3])("finds each of the simulator's thefts once, at its start within two minutes (seed %i)", (seed) => {
    for (const day of demoTheftDay(DATE, IMEIS, seed)) {
      const drops = dropsOf(day);
      expect(drops).toHaveLength(day.truth.drops.length);
      day.truth.drops.forEach((truth, n) => {
        const drop = drops[n] as DetectedDrop;
        expect(minutesApart(drop.at, truth.at)).toBeLessThanOrEqual(2);
        expect(Math.abs(drop.dropQty - truth.litres)).toBeLessThanOrEqual(Math.max(1, 0.08 * truth.litres));
        expect(drop.moving).toBe(false);
      });
    }
  });

  it('finds none in days of drives, fills and idling, nor in fuel sensor dropouts', () => {
    const days = [...demoFleetDay(DATE, IMEIS, 1), ...fleetDay(4, DATE, 30, 7)];
    const faulty = days.map((day) =>
      withRecords(day, deviceFaults.fuelReadings(deviceFaults.fuelReadings(day.records, 40, 3, 1), 90, 4, 0)),
    );
    for (const day of [...days, ...faulty]) expect(dropsOf(day)).toEqual([]);
  }, 120_000);

  it('finds none in a fall that comes back, and none in one slower than the window', () => {
    const settings = { fuelDropMinL: 10, fuelDropWindowS: 900 };
    const walk = (levels: number[], stepS: number) => {
      const state = initialFuelDropState();
      return levels.flatMap((level, n) => {
        const at = new Date(Date.UTC(2026, 10, 1) + n * stepS * 1000).toISOString();
        return trackFuelDrop(state, { at, lat: 0, lng: 0, level, reading: level, moving: false }, settings) ?? [];
      });
    };
    expect(walk([60, 60, 60, 48, 48, 48, 59, 60, 60, 60, 60, 60, 60, 60], 60)).toEqual([]);
    // half a litre a minute: 10 L takes 20 minutes, longer than the window
    expect(walk([...Array.from({ length: 20 }, (_, n) => 60 - n * 0.5), ...Array(10).fill(50)], 60)).toEqual([]);
    expect(walk([60, 60, 60, 45, 45, 45, 45, 45, 45, 45, 45], 60)).toEqual([
      expect.objectContaining({ at: '2026-11-01T00:02:00.000Z', levelBefore: 60, levelAfter: 45, dropQty: 15, moving: false }),
    ]);
  });

  it('says the vehicle was moving when it moved while the level fell', () => {
    const state = initialFuelDropState();
    const drops = [60, 60, 40, 40, 40, 40, 40, 40, 40, 40].flatMap((level, n) => {
      const at = new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString();
      const point = { at, lat: 0, lng: 0, level, reading: level, moving: n === 2 };
      return trackFuelDrop(state, point, { fuelDropMinL: 10, fuelDropWindowS: 900 }) ?? [];
    });
    expect(drops).toEqual([expect.objectContaining({ at: '2026-11-01T00:01:00.000Z', moving: true, dropQty: 20 })]);
  });
});
