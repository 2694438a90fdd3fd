import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { deleteExpenseType } from '../../shared/store/expense-types.ts';

export const DeleteExpenseTypeInput = v.object({ type: requiredInteger('type') });

export const DeleteExpenseTypeOutput = v.object({ type: integerField });

export const handler = operation('deleteExpenseType', DeleteExpenseTypeInput, async ({ user, input }) => {
  await deleteExpenseType(user.userUid, input.type);
  return { type: input.type };
}, { output: DeleteExpenseTypeOutput });
