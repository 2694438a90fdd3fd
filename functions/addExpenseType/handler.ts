import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import { operation } from '../../shared/operation.ts';
import { addExpenseType } from '../../shared/store/expense-types.ts';
import { expenseName } from '../../shared/contracts/expense-types.ts';

export const AddExpenseTypeInput = v.object({ expense_name: expenseName });

export const AddExpenseTypeOutput = ExpenseTypeRecord;

export const handler = operation('addExpenseType', AddExpenseTypeInput, async ({ user, input }) => {
  const created = await addExpenseType(user.userUid, input.expense_name);
  return { type: created.type, name: created.name };
}, { output: AddExpenseTypeOutput });
