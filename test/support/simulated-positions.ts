/** The simulator's records and vehicles as the detector takes them, for tests that run detection without the pipeline. */
import type { VehicleProfile } from '../../shared/domain/tracking/detector.ts';
import { type Position, parsePosition } from '../../shared/domain/tracking/position.ts';
import type { SimVehicle } from '../../simulator/index.ts';

/** A record as the pipeline parses it; a record it would refuse fails the test. */
export function parsed(record: object): Position {
  const result = parsePosition(JSON.stringify(record));
  if (!result.ok) throw new Error(result.reason);
  return result.position;
}

/** What detection knows of a simulated vehicle. */
export const profileOf = (vehicle: SimVehicle): VehicleProfile => ({
  odometerAtStartKm: vehicle.odometerKm,
  startHours: null,
  fuelCapacity: vehicle.fuelCapacity,
  fuelFactor: vehicle.fuelFactor,
});
