/**
 * Trip, fuel-fill and device-fault detection defaults, as fleet platforms (Traccar, Wialon, Navixy) ship them.
 * Each is a per-vehicle setting: a vehicle's `detection` overrides any of them (npm run admin -- vehicle settings).
 */
export interface DetectionSettings {
  /** false for a vehicle without ignition wiring: trips then come from movement alone */
  useIgnition: boolean;
  /** a trip shorter than this distance or duration is noise */
  minTripDistanceKm: number;
  minTripDurationS: number;
  /** without ignition: moving once this far from the last stop; stopped when the trailing window stays within it */
  stopRadiusKm: number;
  stopDwellS: number;
  /** a silence longer than this ends a trip at its last position */
  maxGapS: number;
  /** a fill is a rise of at least max(fillMinLitres, fillMinPercent of capacity) while slower than fillMaxSpeedKmh */
  fillMinLitres: number;
  fillMinPercent: number;
  fillMaxSpeedKmh: number;
  /** rises closer together than this are one fill */
  fillMergeS: number;
  /** samples in the fuel-level median filter */
  fuelMedianWindow: number;
  /** device faults (docs/positions-pipeline.md, "Device faults"): a point dated later than its arrival plus this is in the future */
  futureToleranceS: number;
  /** a point reached from its neighbours faster than this is a jump (a bad fix), and so is an odometer step */
  maxSpeedKmh: number;
  /** a fuel reading above this share of the tank's capacity is a dropout (a sensor error) */
  fuelMaxPercentOfCapacity: number;
  /** a fall of the fuel reading that comes back within this many samples is a dropout, not fuel used */
  fuelDropoutSamples: number;
  /** an odometer step beyond maxSpeedKmh over its interval plus this is impossible: the odometer starts a new base */
  odometerSlackKm: number;
}

export const DEFAULT_DETECTION: DetectionSettings = {
  useIgnition: true,
  minTripDistanceKm: 0.2,
  minTripDurationS: 60,
  stopRadiusKm: 0.2,
  stopDwellS: 180,
  maxGapS: 3600,
  fillMinLitres: 5,
  fillMinPercent: 5,
  fillMaxSpeedKmh: 5,
  fillMergeS: 600,
  fuelMedianWindow: 5,
  futureToleranceS: 600,
  maxSpeedKmh: 250,
  fuelMaxPercentOfCapacity: 110,
  fuelDropoutSamples: 5,
  odometerSlackKm: 1,
};

export const detectionSettings = (overrides: Partial<DetectionSettings> | undefined): DetectionSettings => ({
  ...DEFAULT_DETECTION,
  ...overrides,
});

/**
 * Where a Teltonika unit reports a vehicle's fuel level: the IO element and the factor from its value to the record's
 * `fuel_raw` (which the vehicle's fuel_factor then turns into litres). A per-vehicle setting
 * (`npm run admin -- vehicle fuel-sensor`); docs/devices.md lists the usual elements.
 */
export interface FuelSensorSetting {
  ioId: number;
  scale: number;
}

/** LLS 1 fuel level (IO 201): the first fuel probe on the unit's serial port, in the probe's own units. */
export const DEFAULT_FUEL_SENSOR: FuelSensorSetting = { ioId: 201, scale: 1 };
