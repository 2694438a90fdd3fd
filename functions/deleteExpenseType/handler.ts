import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { deleteExpenseType } from '../../shared/store/expense-types.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const DeleteExpenseTypeInput = v.object({ type: requiredInteger('type') });

export const handler = operation('deleteExpenseType', DeleteExpenseTypeInput, async ({ user, input }) => {
  await deleteExpenseType(user.userUid, input.type);
  return { type: input.type };
});
