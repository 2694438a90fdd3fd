/** The per-vehicle event settings (shared/domain/events/settings.ts): the defaults and a vehicle's own ones. */
import { describe, expect, it } from 'vitest';
import { eventSettings } from '../../../shared/domain/events/settings.ts';

describe('eventSettings', () => {
  it('gives the documented defaults, with a drop of at least 8 % of the tank', () => {
    expect(eventSettings({ fuelCapacity: 300 })).toEqual({
      dwell: 0,
      speedingMinS: 30,
      speedLimitKmh: 0,
      fuelDropMinL: 24,
      fuelDropWindowS: 900,
      offlineAfterS: 1800,
    });
  });

  it('takes 8 litres as the smallest drop of a vehicle without a fuel capacity', () => {
    expect(eventSettings({ fuelCapacity: null }).fuelDropMinL).toBe(8);
  });

  it("takes the vehicle's own settings over the defaults, 0 included, and ignores its trip settings", () => {
    const own = { dwell: 120, speedLimitKmh: 80, fuelDropMinL: 15, offlineAfterS: 0, maxGapS: 60 };
    expect(eventSettings({ fuelCapacity: 300, detection: own })).toEqual({
      dwell: 120,
      speedingMinS: 30,
      speedLimitKmh: 80,
      fuelDropMinL: 15,
      fuelDropWindowS: 900,
      offlineAfterS: 0,
    });
  });
});
