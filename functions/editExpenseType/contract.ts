import * as v from 'valibot';
import { ExpenseTypeRecord, expenseName } from '../../shared/contracts/expense-types.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, requiredInteger } from '../../shared/contracts/primitives.ts';
import { EXPENSE_TYPE_TAKEN } from '../../shared/domain/expense-type.ts';
import { busyMessage } from '../../shared/errors.ts';

const EditExpenseTypeInput = v.object({
  type: described(requiredInteger('type'), "One of the user's own expense types (Fuel, type 2, cannot be renamed)."),
  expense_name: expenseName,
});

const EditExpenseTypeOutput = ExpenseTypeRecord;

export const contract = {
  name: 'editExpenseType',
  method: 'POST',
  area: 'expense types',
  tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  summary: 'Rename an expense type',
  description:
    "Renames one of the user's expense types; old slips show the new name. Fuel (type 2) cannot be renamed; the new name must not " +
    "be another of the user's types.",
  conflicts: [EXPENSE_TYPE_TAKEN, busyMessage('expense type')],
  input: EditExpenseTypeInput,
  output: EditExpenseTypeOutput,
  examples: {
    request: { type: 5, expense_name: 'Traffic fines' },
    response: { type: 5, name: 'Traffic fines' },
  },
} as const satisfies OperationDeclaration;
