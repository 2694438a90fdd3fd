/**
 * How the service names a place, in words for the API reference (the chain itself is shared/places/place-name.ts).
 */
import * as v from 'valibot';

export const PLACE_NAMING =
  'the most specific saved location containing the point; else its address from the reverse-geocoding provider ' +
  '(Amazon Location Service Places in AWS; Google Geocoding or Nominatim when configured; ' +
  'cached about 11 m around the point for 30 days); ' +
  'else, as with no provider or when it fails, the nearest town from the offline GeoNames gazetteer, e.g. "3.2 km NE of Midrand, ZA"; ' +
  'else "<lat>, <lng>"';

/** A place name in a record, named when it was detected (or when the stop was saved). */
export const placeName = (what: string) => v.pipe(v.string(), v.description(`${what}: ${PLACE_NAMING}`));
