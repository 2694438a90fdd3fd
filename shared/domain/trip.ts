import type { DetectedTrip } from './tracking/detector.ts';

/** A detected trip as stored and reported: named places and driver; times UTC ISO, distances km, durations s. */
export interface Trip extends DetectedTrip {
  tripUid: number;
  vehicleUid: number;
  startLocation: string;
  stopLocation: string;
  driverName: string | null;
}
