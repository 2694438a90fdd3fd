import * as v from 'valibot';
import { dateTimeText, nullableText } from '../responses.ts';
import { placeName } from './place.ts';
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

const fuelText = (litres: number | null): string | null => (litres === null ? null : litres.toFixed(1));

/** The spec's trip record: text but for start_odo, a number. */
export const TripRecord = v.object({
  trip_uid: v.string(),
  start_time: dateTimeText,
  stop_time: dateTimeText,
  start_odo: v.number(),
  distance: v.string(),
  duration: v.string(),
  max_speed: v.string(),
  fuel_start: nullableText,
  fuel_end: nullableText,
  start_location_lat: v.string(),
  start_location_lng: v.string(),
  start_location: placeName('where the trip started'),
  stop_location_lat: v.string(),
  stop_location_lng: v.string(),
  stop_location: placeName('where the trip stopped'),
  driver_name: nullableText,
  driver_tag_id: nullableText,
});

/** The spec's trip record, times in the user's offset. */
export function toTripRecord(trip: Trip, offsetMinutes: number): v.InferOutput<typeof TripRecord> {
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
