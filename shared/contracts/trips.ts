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

/** The demo truck's first trip of its day (`npm start`): getTrips' example and trip.completed's. */
export const EXAMPLE_TRIP = {
  trip_uid: '1',
  start_time: '2026-11-22 06:30:00',
  stop_time: '2026-11-22 06:54:24',
  start_odo: 120345,
  distance: '17.60',
  duration: '1464',
  max_speed: '101',
  fuel_start: '187.2',
  fuel_end: '180.6',
  start_location_lat: '-25.999177',
  start_location_lng: '28.126312',
  start_location: 'Depot Midrand',
  stop_location_lat: '-26.10147',
  stop_location_lng: '28.23079',
  stop_location: 'Client Kempton Park',
  driver_name: 'Thabo Mokoena',
  driver_tag_id: '01A2B3C4',
};
