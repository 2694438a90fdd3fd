import * as v from 'valibot';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { deleteOperator } from '../../shared/store/operators.ts';

export const DeleteOperatorInput = v.object({ operator_uid: requiredInteger('operator_uid') });

export const DeleteOperatorOutput = v.object({ operator_uid: integerField });

export const handler = operation('deleteOperator', DeleteOperatorInput, async ({ user, input }) => {
  await deleteOperator(user.userUid, input.operator_uid);
  return { operator_uid: input.operator_uid };
}, { output: DeleteOperatorOutput });
