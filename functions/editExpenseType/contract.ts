import * as v from 'valibot';
import { ExpenseTypeRecord, expenseName } from '../../shared/contracts/expense-types.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

const EditExpenseTypeInput = v.object({ type: requiredInteger('type'), expense_name: expenseName });

const EditExpenseTypeOutput = ExpenseTypeRecord;

export const contract = { input: EditExpenseTypeInput, output: EditExpenseTypeOutput } satisfies OperationContract;
