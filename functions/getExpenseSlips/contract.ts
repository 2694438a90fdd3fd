import * as v from 'valibot';
import { VAN_FUEL_SLIP } from '../../shared/contracts/demo-records.ts';
import { SlipRecord } from '../../shared/contracts/expense-slips.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { dateRangeEntries, dateTimeField, integerField, startNotAfterEnd } from '../../shared/contracts/primitives.ts';
import { vehicleUid } from '../../shared/contracts/vehicles.ts';

const GetExpenseSlipsInput = v.pipe(
  v.object({
    vehicle_uid: vehicleUid,
    ...dateRangeEntries,
    limit: pageLimit(),
    cursor: pageCursor,
  }),
  startNotAfterEnd(),
);

const GetExpenseSlipsOutput = v.object({
  vehicle_uid: integerField,
  start_date: dateTimeField,
  end_date: dateTimeField,
  cnt: integerField,
  slips: v.array(SlipRecord),
  next_cursor: nextCursorField,
});

export const contract = {
  name: 'getExpenseSlips',
  method: 'GET',
  area: 'slips',
  tableActions: ['BatchGetItem', 'Query'],
  summary: "A vehicle's expense and fuel slips between two dates",
  description:
    "A vehicle's slips (expense, fuel and fill slips) whose event_datetime falls on the user's calendar days from start_date to " +
    'end_date, both included.',
  input: GetExpenseSlipsInput,
  output: GetExpenseSlipsOutput,
  examples: {
    request: { vehicle_uid: 2, start_date: '2026-11-01', end_date: '2026-11-30', limit: 100, cursor: '' },
    response: {
      vehicle_uid: 2,
      start_date: '2026-11-01 00:00:00',
      end_date: '2026-11-30 23:59:59',
      cnt: 1,
      slips: [VAN_FUEL_SLIP],
    },
  },
} as const satisfies OperationDeclaration;
