import * as v from 'valibot';
import { FuelFillRecord } from '../../shared/contracts/fuel-fills.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { dateField, dateRangeEntries, integerField, nullableTextField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { vehicleUid } from '../../shared/contracts/vehicles.ts';
import { inclusiveDayCount } from '../../shared/domain/time.ts';

const MAX_RANGE_DAYS = 366;

const GetFuelFillReportInput = v.pipe(
  v.object({ vehicle_uid: vehicleUid, ...dateRangeEntries, limit: pageLimit(), cursor: pageCursor }),
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

export const contract = {
  name: 'getFuelFillReport',
  method: 'GET',
  area: 'fuel',
  tableActions: ['BatchGetItem', 'Query'],
  summary: 'Detected fuel fills of a vehicle with their slips and consumption',
  description:
    "The fuel fills the pipeline detected for a vehicle on the user's calendar days from start_date to end_date (at most 366 " +
    'days), each with its captured slip (or nulls), the difference between slip and measured litres, and the distance, time and ' +
    'fuel used since the previous fill with the consumption they give.',
  input: GetFuelFillReportInput,
  output: GetFuelFillReportOutput,
  examples: {
    request: { vehicle_uid: 1, start_date: '2026-11-01', end_date: '2026-11-30', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 1,
      imei: '356307042441013',
      vehicle_name: 'Truck 01',
      registration_number: 'CA 123-456',
      fuel_factor: 1,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      cnt: 2,
      fills: [
        {
          event_uid: 1,
          event_date: '2026-11-22',
          event_time: '06:00:07',
          slip_number: 'DEPOT-0001',
          slip_uid: 3,
          slip_qty: '125.6',
          slip_amount: '2868.98',
          slip_diff: 0,
          fill_qty: 125.6,
          operator_uid: null,
          operator_name: null,
          odo: 120345,
          hours: 4210,
          fuel_level_before: 61.8,
          fuel_level_after: 187.4,
          latitude: -25.999244,
          longitude: 28.126298,
          location: 'Depot Midrand',
          trip_uid: null,
          distance: null,
          duration: null,
          fuel_used: null,
          consumption_km_per_l: null,
          consumption_l_per_hr: null,
        },
        {
          event_uid: 4,
          event_date: '2026-11-22',
          event_time: '13:49:25',
          slip_number: null,
          slip_uid: null,
          slip_qty: null,
          slip_amount: null,
          slip_diff: null,
          fill_qty: 45.1,
          operator_uid: null,
          operator_name: null,
          odo: 120441.7,
          hours: 4212.1,
          fuel_level_before: 154.9,
          fuel_level_after: 199.9,
          latitude: -26.053542,
          longitude: 28.093632,
          location: 'Fuel stop Woodmead',
          trip_uid: 13,
          distance: 96.7,
          duration: 7600,
          fuel_used: 32.5,
          consumption_km_per_l: 2.97,
          consumption_l_per_hr: 15.41,
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
