import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { DEFAULT_MAX_LIMIT, nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { dateField, dateRangeEntries, integerField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { EXAMPLE_TRIP, TripRecord } from '../../shared/contracts/trips.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';

const GetTripsInput = v.pipe(
  v.object({
    filter: imeiFilter,
    ...dateRangeEntries,
    limit: pageLimit(DEFAULT_MAX_LIMIT, {
      description:
        'Paging (docs/paging.md): the most trips this page answers, 1 to 10,000; a vehicle whose trips go on to the next page is ' +
        'listed again there with the rest. An answer that left trips out carries next_cursor.',
    }),
    cursor: pageCursor,
  }),
  startNotAfterEnd(),
);

const GetTripsOutput = v.object({
  filter: v.string(),
  start_date: dateField,
  end_date: dateField,
  cnt: integerField,
  vehicles: v.array(v.object({ vehicle_uid: v.string(), imei: v.string(), trip_cnt: integerField, trips: v.array(TripRecord) })),
  next_cursor: nextCursorField,
});

export const contract = {
  name: 'getTrips',
  method: 'GET',
  area: 'vehicles',
  tableActions: ['Query'],
  summary: 'Trips per vehicle between two dates',
  description:
    'The trips the positions pipeline detected for each linked vehicle (or the IMEIs in `filter`) between start_date and end_date, ' +
    "both calendar days in the user's GMT offset and both included. Each trip has its start and stop time, place and odometer, " +
    'distance, duration, top speed, fuel levels and driver.',
  input: GetTripsInput,
  output: GetTripsOutput,
  examples: {
    request: { filter: '356307042441013', start_date: '2026-11-22', end_date: '2026-11-22', limit: 100, cursor: '' },
    response: {
      filter: '356307042441013',
      start_date: '2026-11-22',
      end_date: '2026-11-22',
      cnt: 1,
      vehicles: [
        {
          vehicle_uid: '1',
          imei: '356307042441013',
          trip_cnt: 7,
          trips: [
            EXAMPLE_TRIP,
            {
              trip_uid: '4',
              start_time: '2026-11-22 07:45:00',
              stop_time: '2026-11-22 08:08:35',
              start_odo: 120362.6,
              distance: '19.30',
              duration: '1415',
              max_speed: '100',
              fuel_start: '180.8',
              fuel_end: '175.1',
              start_location_lat: '-26.101505',
              start_location_lng: '28.230829',
              start_location: 'Client Kempton Park',
              stop_location_lat: '-26.107595',
              stop_location_lng: '28.056696',
              stop_location: 'Client Sandton',
              driver_name: 'Thabo Mokoena',
              driver_tag_id: '01A2B3C4',
            },
          ],
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
