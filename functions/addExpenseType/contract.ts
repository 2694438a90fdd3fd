import * as v from 'valibot';
import { ExpenseTypeRecord, expenseName } from '../../shared/contracts/expense-types.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { EXPENSE_TYPE_TAKEN } from '../../shared/domain/expense-type.ts';

const AddExpenseTypeInput = v.object({ expense_name: expenseName });

const AddExpenseTypeOutput = ExpenseTypeRecord;

export const contract = {
  name: 'addExpenseType',
  method: 'POST',
  area: 'expense types',
  tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
  summary: 'Create an expense type',
  idempotencyKey: true,
  description:
    'Creates an expense type for the user and answers it with its new type number. Names are unique per user, compared trimmed and ' +
    'case-insensitively, and "Fuel" is taken by type 2.',
  conflicts: [EXPENSE_TYPE_TAKEN],
  input: AddExpenseTypeInput,
  output: AddExpenseTypeOutput,
  examples: {
    request: { expense_name: 'Fines' },
    response: { type: 5, name: 'Fines' },
  },
} as const satisfies OperationDeclaration;
