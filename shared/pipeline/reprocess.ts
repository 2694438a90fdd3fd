/**
 * Re-runs detection over a vehicle's stored history from a day on (npm run admin -- reprocess), keeping the
 * trip_uid and event_uid of every trip and fill found again: after a change of the vehicle's detection settings,
 * fuel_factor or starting odometer, or of the detector itself.
 */
import { findTrackedVehicles, trackedFromItem } from '../store/tracks.ts';
import { findVehicle } from '../store/vehicles.ts';
import { PlaceNamer } from './place-namer.ts';
import { trackVehicle, type VehicleOutcome } from './track-vehicle.ts';

/** `from` is a UTC instant; undefined when there is no such vehicle. */
export async function reprocessVehicle(vehicleUid: number, from: string): Promise<VehicleOutcome | undefined> {
  const vehicle = await findVehicle(vehicleUid);
  if (!vehicle) return undefined;
  const tracked = (await findTrackedVehicles([vehicle.imei])).get(vehicle.imei) ?? trackedFromItem(vehicle, undefined);
  // the live record keeps when the device last reported: reprocessing receives nothing new
  const receivedAt = tracked.live ? new Date(tracked.live.lastResponse) : new Date();
  return trackVehicle(tracked, [], { receivedAt, namer: new PlaceNamer(), reprocessFrom: from });
}
