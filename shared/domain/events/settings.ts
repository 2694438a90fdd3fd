/**
 * Event settings (docs/events.md, "Settings"): per vehicle, stored with the trip, fuel and device-fault settings in
 * the vehicle's `detection` (npm run admin -- vehicle settings) and read through `eventSettings`.
 */

import type { DetectionSettings } from '../tracking/settings.ts';

export interface EventSettings {
  /** seconds a stay in a zone must last before `geofence.entered` / `no_go.entered` fires (stamped at the real entry) */
  dwell: number;
  /** seconds above the limit that start speeding, and at or below it that end it */
  speedingMinS: number;
  /** the vehicle's own speed limit, everywhere (its speeding is a vehicle fact; zones' limits make their users' own); 0: none */
  speedLimitKmh: number;
  /** litres the level must fall within fuelDropWindowS (and stay down) for `fuel.dropped` */
  fuelDropMinL: number;
  fuelDropWindowS: number;
  /** seconds without an accepted point (on the service's clock) before `device.offline` */
  offlineAfterS: number;
}

/** Every per-vehicle setting a vehicle's `detection` may override. */
export type VehicleSettings = DetectionSettings & EventSettings;

/** The defaults but fuelDropMinL, which follows the vehicle's tank (fuelDropMinLitres). */
export const DEFAULT_EVENT_SETTINGS: Omit<EventSettings, 'fuelDropMinL'> = {
  dwell: 0,
  speedingMinS: 30,
  speedLimitKmh: 0,
  fuelDropWindowS: 900,
  offlineAfterS: 1800,
};

/** fuelDropMinL's default: this share of fuel_capacity, or FUEL_DROP_MIN_L_WITHOUT_CAPACITY for a vehicle without one. */
const FUEL_DROP_MIN_PERCENT = 8;
const FUEL_DROP_MIN_L_WITHOUT_CAPACITY = 8;

/** The names of the event settings, in the order they are documented. */
export const EVENT_SETTING_NAMES: readonly (keyof EventSettings)[] = [
  'dwell',
  'speedingMinS',
  'speedLimitKmh',
  'fuelDropMinL',
  'fuelDropWindowS',
  'offlineAfterS',
];

/** Settings that may be 0 (no dwell; no own speed limit); every other one is above 0. */
export const SETTINGS_ALLOWING_ZERO: ReadonlySet<string> = new Set<keyof EventSettings>(['dwell', 'speedLimitKmh']);

const fuelDropMinLitres = (fuelCapacity: number | null): number =>
  fuelCapacity && fuelCapacity > 0 ? (fuelCapacity * FUEL_DROP_MIN_PERCENT) / 100 : FUEL_DROP_MIN_L_WITHOUT_CAPACITY;

/** A vehicle's event settings: its own ones (its `detection`) over the defaults. */
export function eventSettings(vehicle: { detection?: Partial<VehicleSettings>; fuelCapacity: number | null }): EventSettings {
  const own = vehicle.detection ?? {};
  const pick = (name: keyof EventSettings, fallback: number): number => (typeof own[name] === 'number' ? own[name] : fallback);
  return {
    dwell: pick('dwell', DEFAULT_EVENT_SETTINGS.dwell),
    speedingMinS: pick('speedingMinS', DEFAULT_EVENT_SETTINGS.speedingMinS),
    speedLimitKmh: pick('speedLimitKmh', DEFAULT_EVENT_SETTINGS.speedLimitKmh),
    fuelDropMinL: pick('fuelDropMinL', fuelDropMinLitres(vehicle.fuelCapacity)),
    fuelDropWindowS: pick('fuelDropWindowS', DEFAULT_EVENT_SETTINGS.fuelDropWindowS),
    offlineAfterS: pick('offlineAfterS', DEFAULT_EVENT_SETTINGS.offlineAfterS),
  };
}
