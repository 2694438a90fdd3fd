import { toSlipRecord } from '../../shared/contracts/expense-slips.ts';
import type { ExpenseSlip } from '../../shared/domain/expense-slip.ts';
import { operation } from '../../shared/operation.ts';
import { AnswerPage } from '../../shared/paging/answer-page.ts';
import { readExpenseSlips } from '../../shared/store/expense-slips.ts';
import type { ItemPosition } from '../../shared/store/requests.ts';
import { contract } from './contract.ts';

/** What a type name may add to a slip counted before the names are read: a longer one meets the answer-encoding net. */
const TYPE_NAME_ALLOWANCE = 'x'.repeat(48);

/** event_datetime is the user's local time as entered, so the user's days compare as text, with no offset. */
export const handler = operation('getExpenseSlips', contract, async (context) => {
  const { user, input } = context;
  const startDate = `${input.start_date} 00:00:00`;
  const endDate = `${input.end_date} 23:59:59`;
  const page = await AnswerPage.open<ItemPosition>(context);
  const read = page.reader((slip: ExpenseSlip) => toSlipRecord({ ...slip, typeName: TYPE_NAME_ALLOWANCE }));
  const slips = await readExpenseSlips(user.userUid, input.vehicle_uid, startDate, endDate, read);
  return {
    vehicle_uid: input.vehicle_uid,
    start_date: startDate,
    end_date: endDate,
    cnt: slips.length,
    slips: slips.map(toSlipRecord),
    ...(await page.nextCursor()),
  };
});
