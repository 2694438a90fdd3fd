/** The spec's trip record (getTrips); the domain reports a trip in it (tripReport, shared/domain/trip.ts). */
import * as v from 'valibot';
import { placeName } from '../domain/place.ts';
import { dateTimeField, nullableTextField } from './primitives.ts';

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
