import { formatDateTime } from './time.ts';
import type { DetectedTrip } from './tracking/detector.ts';

/** A detected trip as stored and reported: named places and driver; times UTC ISO, distances km, durations s. */
export interface Trip extends DetectedTrip {
  tripUid: number;
  vehicleUid: number;
  startLocation: string;
  stopLocation: string;
  driverName: string | null;
}

/** A trip as getTrips answers it and trip.completed carries it: text but for start_odo, times in the given offset. */
export interface TripReport {
  trip_uid: string;
  start_time: string;
  stop_time: string;
  start_odo: number;
  distance: string;
  duration: string;
  max_speed: string;
  fuel_start: string | null;
  fuel_end: string | null;
  start_location_lat: string;
  start_location_lng: string;
  start_location: string;
  stop_location_lat: string;
  stop_location_lng: string;
  stop_location: string;
  driver_name: string | null;
  driver_tag_id: string | null;
}

const fuelText = (litres: number | null): string | null => (litres === null ? null : litres.toFixed(1));

/** The trip's report, times in the user's offset (GMT+0 in events). */
export function tripReport(trip: Trip, offsetMinutes: number): TripReport {
  return {
    trip_uid: String(trip.tripUid),
    start_time: formatDateTime(trip.startTime, offsetMinutes),
    stop_time: formatDateTime(trip.stopTime, offsetMinutes),
    start_odo: Number(trip.odometerAtStart.toFixed(1)),
    distance: trip.distanceKm.toFixed(2),
    duration: String(Math.round(trip.durationS)),
    max_speed: String(Math.round(trip.maxSpeed)),
    fuel_start: fuelText(trip.fuelStart),
    fuel_end: fuelText(trip.fuelEnd),
    start_location_lat: String(trip.startLat),
    start_location_lng: String(trip.startLng),
    start_location: trip.startLocation,
    stop_location_lat: String(trip.stopLat),
    stop_location_lng: String(trip.stopLng),
    stop_location: trip.stopLocation,
    driver_name: trip.driverName,
    driver_tag_id: trip.driverTagId,
  };
}
