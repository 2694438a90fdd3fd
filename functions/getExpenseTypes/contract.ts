import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';

const GetExpenseTypesInput = v.object({});

const GetExpenseTypesOutput = v.object({ cnt: integerField, expense_types: v.array(ExpenseTypeRecord) });

export const contract = {
  name: 'getExpenseTypes',
  method: 'GET',
  area: 'expense types',
  tableActions: ['Query'],
  summary: "Fuel (type 2) and the user's own expense types",
  description: "Fuel (type 2, built in for everyone) and the user's own expense types, by type. Deleted types are not listed.",
  input: GetExpenseTypesInput,
  output: GetExpenseTypesOutput,
  examples: {
    request: {},
    response: {
      cnt: 3,
      expense_types: [
        { type: 2, name: 'Fuel' },
        { type: 3, name: 'Tolls' },
      ],
    },
  },
} as const satisfies OperationDeclaration;
