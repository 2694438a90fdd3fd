import * as v from 'valibot';
import { FuelFillRecord } from '../../shared/contracts/fuel-fills.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import {
  dateField,
  dateRangeEntries,
  integerField,
  nullableTextField,
  requiredInteger,
  startNotAfterEnd,
} from '../../shared/contracts/primitives.ts';
import { inclusiveDayCount } from '../../shared/domain/time.ts';

const MAX_RANGE_DAYS = 366;

const GetFuelFillReportInput = v.pipe(
  v.object({ vehicle_uid: requiredInteger('vehicle_uid'), ...dateRangeEntries, limit: pageLimit(), cursor: pageCursor }),
  startNotAfterEnd(),
  v.check((input) => inclusiveDayCount(input.start_date, input.end_date) <= MAX_RANGE_DAYS, 'date range may not exceed 366 days'),
);

const GetFuelFillReportOutput = v.object({
  vehicle_uid: integerField,
  imei: v.string(),
  vehicle_name: v.string(),
  registration_number: nullableTextField,
  fuel_factor: v.number(),
  start_date: dateField,
  end_date: dateField,
  cnt: integerField,
  fills: v.array(FuelFillRecord),
  next_cursor: nextCursorField,
});

export const contract = { input: GetFuelFillReportInput, output: GetFuelFillReportOutput } satisfies OperationContract;
