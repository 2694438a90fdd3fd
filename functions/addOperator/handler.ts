import * as v from 'valibot';
import { newOperatorFields, OPERATOR_LIMITS, operatorChanges, operatorDetailEntries } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { integer } from '../../shared/responses.ts';
import { addOperator } from '../../shared/store/operators.ts';
import { requiredText } from '../../shared/validation.ts';

export const AddOperatorInput = v.object({
  fullname: requiredText('fullname', OPERATOR_LIMITS.fullname),
  id_number: requiredText('id_number', OPERATOR_LIMITS.id_number),
  tag_id: requiredText('tag_id', OPERATOR_LIMITS.tag_id),
  ...operatorDetailEntries,
});

export const AddOperatorOutput = v.object({ operator_uid: integer });

export const handler = operation('addOperator', AddOperatorInput, async ({ user, input }) => {
  const fields = newOperatorFields({ ...operatorChanges(input), fullname: input.fullname, idNumber: input.id_number, tagId: input.tag_id });
  const created = await addOperator(user.userUid, fields);
  return { operator_uid: created.operatorUid };
}, { output: AddOperatorOutput });
