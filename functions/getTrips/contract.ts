import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { dateField, dateRangeEntries, integerField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { TripRecord } from '../../shared/contracts/trips.ts';
import { imeiFilter } from '../../shared/contracts/vehicles.ts';

const GetTripsInput = v.pipe(
  v.object({
    filter: imeiFilter,
    ...dateRangeEntries,
  }),
  startNotAfterEnd(),
);

const GetTripsOutput = v.object({
  filter: v.string(),
  start_date: dateField,
  end_date: dateField,
  cnt: integerField,
  vehicles: v.array(v.object({ vehicle_uid: v.string(), imei: v.string(), trip_cnt: integerField, trips: v.array(TripRecord) })),
});

export const contract = { input: GetTripsInput, output: GetTripsOutput } satisfies OperationContract;
