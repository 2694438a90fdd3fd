import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';

const GetExpenseTypesInput = v.object({});

const GetExpenseTypesOutput = v.object({ cnt: integerField, expense_types: v.array(ExpenseTypeRecord) });

export const contract = { input: GetExpenseTypesInput, output: GetExpenseTypesOutput } satisfies OperationContract;
