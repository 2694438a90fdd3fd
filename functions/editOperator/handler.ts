import * as v from 'valibot';
import { nonBlankText, operatorChanges, operatorDetailEntries } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { editOperator } from '../../shared/store/operators.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const EditOperatorInput = v.object({
  operator_uid: requiredInteger('operator_uid'),
  fullname: nonBlankText('fullname'),
  id_number: nonBlankText('id_number'),
  tag_id: nonBlankText('tag_id'),
  ...operatorDetailEntries,
});

export const EditOperatorOutput = v.object({ operator_uid: integer });

export const handler = operation('editOperator', EditOperatorInput, async ({ user, input }) => {
  const { operator_uid, ...params } = input;
  await editOperator(user.userUid, operator_uid, operatorChanges(params));
  return { operator_uid };
}, { output: EditOperatorOutput });
