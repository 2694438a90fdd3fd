import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';
import { expenseName } from '../../shared/contracts/expense-types.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const EditExpenseTypeInput = v.object({ type: requiredInteger('type'), expense_name: expenseName });

const EditExpenseTypeOutput = ExpenseTypeRecord;

export const contract = { input: EditExpenseTypeInput, output: EditExpenseTypeOutput } satisfies OperationContract;
