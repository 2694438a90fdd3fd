/** Fuel fills the pipeline detects; the record getFuelFillReport answers is in shared/contracts/fuel-fills.ts. */

export interface FuelFill {
  eventUid: number;
  vehicleUid: number;
  /** UTC ISO instant the level started to rise */
  at: string;
  latitude: number;
  longitude: number;
  location: string;
  levelBefore: number | null;
  levelAfter: number;
  /** litres added, fuel_factor applied */
  fillQty: number;
  odometerKm: number;
  engineHours: number | null;
  operatorUid: number | null;
  operatorName: string | null;
  tripUid: number | null;
  /** since the previous fill; null on a vehicle's first fill */
  distanceKm: number | null;
  durationS: number | null;
  fuelUsed: number | null;
  slipUid: number | null;
}

/** One slip per fill: the 409 of addFuelFillSlip, naming the slip to change instead. */
export const fillSlipExists = (slipUid: number | string): string =>
  `a slip already exists for this fill: use editExpenseSlip or deleteExpenseSlip with slip_uid ${slipUid}`;
