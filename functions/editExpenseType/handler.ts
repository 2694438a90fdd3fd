import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import { operation } from '../../shared/operation.ts';
import { renameExpenseType } from '../../shared/store/expense-types.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';
import { expenseName } from '../../shared/contracts/expense-types.ts';

export const EditExpenseTypeInput = v.object({ type: requiredInteger('type'), expense_name: expenseName });

export const EditExpenseTypeOutput = ExpenseTypeRecord;

export const handler = operation('editExpenseType', EditExpenseTypeInput, async ({ user, input }) => {
  const renamed = await renameExpenseType(user.userUid, input.type, input.expense_name);
  return { type: renamed.type, name: renamed.name };
}, { output: EditExpenseTypeOutput });
