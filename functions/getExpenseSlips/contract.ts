import * as v from 'valibot';
import { SlipRecord } from '../../shared/contracts/expense-slips.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { dateRangeEntries, dateTimeField, integerField, requiredInteger, startNotAfterEnd } from '../../shared/contracts/primitives.ts';

const GetExpenseSlipsInput = v.pipe(
  v.object({
    vehicle_uid: requiredInteger('vehicle_uid'),
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

export const contract = { input: GetExpenseSlipsInput, output: GetExpenseSlipsOutput } satisfies OperationContract;
