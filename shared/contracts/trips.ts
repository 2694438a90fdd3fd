/** The spec's trip record (getTrips). */
import * as v from 'valibot';
import { placeName } from '../domain/place.ts';
import { formatDateTime } from '../domain/time.ts';
import type { Trip } from '../domain/trip.ts';
import { dateTimeField, nullableTextField } from './primitives.ts';

const fuelText = (litres: number | null): string | null => (litres === null ? null : litres.toFixed(1));

/** The spec's trip record: text but for start_odo, a number. */
export const TripRecord = v.object({
  trip_uid: v.string(),
  start_time: dateTimeField,
  stop_time: dateTimeField,
  start_odo: v.number(),
  distance: v.string(),
  duration: v.string(),
  max_speed: v.string(),
  fuel_start: nullableTextField,
  fuel_end: nullableTextField,
  start_location_lat: v.string(),
  start_location_lng: v.string(),
  start_location: placeName('where the trip started'),
  stop_location_lat: v.string(),
  stop_location_lng: v.string(),
  stop_location: placeName('where the trip stopped'),
  driver_name: nullableTextField,
  driver_tag_id: nullableTextField,
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
