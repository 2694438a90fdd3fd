/** Expense types on the wire: the name parameter and the record. */
import * as v from 'valibot';
import { described, integerField, requiredText } from './primitives.ts';

/** The spec's expense type record (getExpenseTypes; addExpenseType and editExpenseType answer one). */
export const ExpenseTypeRecord = v.object({ type: integerField, name: v.string() });

/** An expense type's name (addExpenseType, editExpenseType). */
export const expenseName = described(
  requiredText('expense_name', 255),
  "The expense type's name, trimmed; unique per user, compared case-insensitively.",
);
