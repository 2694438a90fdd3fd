import * as v from 'valibot';
import { nonBlankText, operatorDetailEntries } from '../../shared/contracts/operators.ts';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';
import { editOperator } from '../../shared/store/operators.ts';

export const EditOperatorInput = v.object({
  operator_uid: requiredInteger('operator_uid'),
  fullname: nonBlankText('fullname'),
  id_number: nonBlankText('id_number'),
  tag_id: nonBlankText('tag_id'),
  ...operatorDetailEntries,
});

export const EditOperatorOutput = v.object({ operator_uid: integerField });

export const handler = operation('editOperator', EditOperatorInput, async ({ user, input }) => {
  const { operator_uid, ...changes } = input;
  await editOperator(user.userUid, operator_uid, changes);
  return { operator_uid };
}, { output: EditOperatorOutput });
