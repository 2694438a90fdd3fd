import * as v from 'valibot';
import { ExpenseTypeRecord, expenseName } from '../../shared/contracts/expense-types.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';

const AddExpenseTypeInput = v.object({ expense_name: expenseName });

const AddExpenseTypeOutput = ExpenseTypeRecord;

export const contract = { input: AddExpenseTypeInput, output: AddExpenseTypeOutput } satisfies OperationContract;
