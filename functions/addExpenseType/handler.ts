import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { expenseName } from '../../shared/validation.ts';

export const AddExpenseTypeInput = v.object({ expense_name: expenseName });

export const handler = operation('addExpenseType', AddExpenseTypeInput, async ({ user, input }) => {
  const created = await addExpenseType(user.userUid, input.expense_name);
  return { type: created.type, name: created.name };
});
