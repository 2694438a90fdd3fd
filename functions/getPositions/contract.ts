import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import {
  dateTimeField,
  dateTimeParameter,
  described,
  integerField,
  nullableNumberField,
  nullableTextField,
} from '../../shared/contracts/primitives.ts';
import { vehicleUid } from '../../shared/contracts/vehicles.ts';
import { POINT_FAULTS } from '../../shared/domain/tracking/faults.ts';

const MAX_RANGE_DAYS = 7;
const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;
export const MAX_POSITIONS = 10_000;

/** A 'yyyy-mm-dd hh:mm:ss' in the user's offset → the UTC instant (ms). */
export const instantOf = (text: string, offsetMinutes: number): number => Date.parse(`${text.replace(' ', 'T')}Z`) - offsetMinutes * 60_000;

const GetPositionsInput = v.pipe(
  v.object({
    vehicle_uid: vehicleUid,
    start_datetime: described(
      dateTimeParameter('start_datetime is required (yyyy-mm-dd hh:mm:ss)'),
      "Start of the time range, yyyy-mm-dd hh:mm:ss in the user's GMT offset (included).",
    ),
    end_datetime: described(
      dateTimeParameter('end_datetime is required (yyyy-mm-dd hh:mm:ss)'),
      "End of the time range, yyyy-mm-dd hh:mm:ss in the user's GMT offset (included); not before start_datetime and at most " +
        `${MAX_RANGE_DAYS} days after it.`,
    ),
    limit: pageLimit(MAX_POSITIONS, {
      description:
        'The most positions to answer, 1 to 10,000 (default 10,000); when more exist, the answer says where the next call starts ' +
        '(next_start_datetime, and next_cursor when limit or cursor was sent).',
      // Without limit the answer holds at most 10,000 positions, as with limit=10000 (which also asks for next_cursor).
      serviceDefault: MAX_POSITIONS,
    }),
    cursor: pageCursor,
  }),
  v.check((input) => input.start_datetime <= input.end_datetime, 'start_datetime may not be after end_datetime'),
  v.check(
    (input) => instantOf(input.end_datetime, 0) - instantOf(input.start_datetime, 0) <= MAX_RANGE_MS,
    `datetime range may not exceed ${MAX_RANGE_DAYS} days`,
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
  ignored: described(
    v.optional(v.picklist(POINT_FAULTS)),
    'Present on a point that trips, distance, places, fills and the live record leave out: why (docs/positions.md).',
  ),
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

export const contract = {
  name: 'getPositions',
  method: 'GET',
  area: 'positions',
  tableActions: ['GetItem', 'BatchGetItem', 'Query'],
  summary: "A vehicle's stored positions between two times, oldest first (trip playback)",
  description:
    "Trip playback: the positions a linked vehicle reported between start_datetime and end_datetime (the user's local time, at " +
    'most 7 days apart), oldest first, as the pipeline stored them, whatever order they arrived in. gps_datetime is GMT+0, as in ' +
    'getLiveData. At most `limit` positions (default and maximum 10,000) are answered; when more exist, next_start_datetime is the ' +
    'start_datetime of the next call.',
  input: GetPositionsInput,
  output: GetPositionsOutput,
  examples: {
    request: { vehicle_uid: 1, start_datetime: '2026-11-22 06:30:00', end_datetime: '2026-11-22 06:31:00', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 1,
      imei: '356307042441013',
      start_datetime: '2026-11-22 06:30:00',
      end_datetime: '2026-11-22 06:31:00',
      cnt: 2,
      positions: [
        {
          gps_datetime: '2026-11-22 04:30:00',
          latitude: -25.999177,
          longitude: 28.126312,
          speed: 0,
          heading: 31,
          ignition: 1,
          fuel_value: 187.2,
          odometer: 120345,
          driver_id: '01A2B3C4',
          supp_volt: 12.65,
          int_batt_volt: 4.1,
          int_temp: 28,
          ext_temp: null,
        },
        {
          gps_datetime: '2026-11-22 04:30:30',
          latitude: -25.998713,
          longitude: 28.127805,
          speed: 24,
          heading: 64,
          ignition: 1,
          fuel_value: 187.2,
          odometer: 120345.2,
          driver_id: '01A2B3C4',
          supp_volt: 13.9,
          int_batt_volt: 4.1,
          int_temp: 28,
          ext_temp: null,
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
