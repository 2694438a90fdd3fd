import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import {
  dateTimeField,
  dateTimeParameter,
  integerField,
  nullableNumberField,
  nullableTextField,
  requiredInteger,
} from '../../shared/contracts/primitives.ts';
import { POINT_FAULTS } from '../../shared/domain/tracking/faults.ts';

const MAX_RANGE_MS = 7 * 86_400_000;
export const MAX_POSITIONS = 10_000;

/** A 'yyyy-mm-dd hh:mm:ss' in the user's offset → the UTC instant (ms). */
export const instantOf = (text: string, offsetMinutes: number): number => Date.parse(`${text.replace(' ', 'T')}Z`) - offsetMinutes * 60_000;

const GetPositionsInput = v.pipe(
  v.object({
    vehicle_uid: requiredInteger('vehicle_uid'),
    start_datetime: dateTimeParameter('start_datetime is required (yyyy-mm-dd hh:mm:ss)'),
    end_datetime: dateTimeParameter('end_datetime is required (yyyy-mm-dd hh:mm:ss)'),
    limit: pageLimit(
      MAX_POSITIONS,
      'the most positions to answer (default 10,000); when more exist, next_start_datetime says where they start',
    ),
    cursor: pageCursor,
  }),
  v.check((input) => input.start_datetime <= input.end_datetime, 'start_datetime may not be after end_datetime'),
  v.check(
    (input) => instantOf(input.end_datetime, 0) - instantOf(input.start_datetime, 0) <= MAX_RANGE_MS,
    'datetime range may not exceed 7 days',
  ),
);

export const PositionRecordOutput = v.object({
  gps_datetime: dateTimeField,
  latitude: v.number(),
  longitude: v.number(),
  speed: nullableNumberField,
  heading: nullableNumberField,
  ignition: v.nullable(v.picklist([0, 1])),
  fuel_value: nullableNumberField,
  odometer: nullableNumberField,
  driver_id: nullableTextField,
  supp_volt: nullableNumberField,
  int_batt_volt: nullableNumberField,
  int_temp: nullableNumberField,
  ext_temp: nullableNumberField,
  /** present on a point trips, distance, places, fills and the live record leave out: why (docs/positions.md) */
  ignored: v.optional(v.picklist(POINT_FAULTS)),
});

const GetPositionsOutput = v.object({
  vehicle_uid: integerField,
  imei: v.string(),
  start_datetime: dateTimeField,
  end_datetime: dateTimeField,
  cnt: integerField,
  positions: v.array(PositionRecordOutput),
  /** present when more positions exist than were returned: the next call's start_datetime */
  next_start_datetime: v.optional(dateTimeField),
  next_cursor: nextCursorField,
});

export const contract = { input: GetPositionsInput, output: GetPositionsOutput } satisfies OperationContract;
