import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { DEFAULT_MAX_LIMIT, nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { dateField, dateRangeEntries, integerField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { TripRecord } from '../../shared/contracts/trips.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';

const GetTripsInput = v.pipe(
  v.object({
    filter: imeiFilter,
    ...dateRangeEntries,
    limit: pageLimit(DEFAULT_MAX_LIMIT, 'the most trips this page answers; sending it asks for paging'),
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

export const contract = { input: GetTripsInput, output: GetTripsOutput } satisfies OperationContract;
