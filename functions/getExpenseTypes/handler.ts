import * as v from 'valibot';
import { ExpenseTypeRecord } from '../../shared/contracts/expense-types.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { listExpenseTypes } from '../../shared/store/expense-types.ts';

export const GetExpenseTypesInput = v.object({});

export const GetExpenseTypesOutput = v.object({ cnt: integerField, expense_types: v.array(ExpenseTypeRecord) });

export const handler = operation('getExpenseTypes', GetExpenseTypesInput, async ({ user }) => {
  const types = await listExpenseTypes(user.userUid);
  return { cnt: types.length, expense_types: types.map(({ type, name }) => ({ type, name })) };
}, { output: GetExpenseTypesOutput });
