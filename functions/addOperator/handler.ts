import * as v from 'valibot';
import { newOperatorFields, OPERATOR_LIMITS } from '../../shared/domain/operator.ts';
import { operatorDetailEntries } from '../../shared/contracts/operators.ts';
import { operation } from '../../shared/operation.ts';
import { integerField, requiredText } from '../../shared/contracts/primitives.ts';
import { addOperator } from '../../shared/store/operators.ts';

export const AddOperatorInput = v.object({
  fullname: requiredText('fullname', OPERATOR_LIMITS.fullname),
  id_number: requiredText('id_number', OPERATOR_LIMITS.id_number),
  tag_id: requiredText('tag_id', OPERATOR_LIMITS.tag_id),
  ...operatorDetailEntries,
});

export const AddOperatorOutput = v.object({ operator_uid: integerField });

export const handler = operation('addOperator', AddOperatorInput, async ({ user, input }) => {
  const created = await addOperator(user.userUid, newOperatorFields(input));
  return { operator_uid: created.operator_uid };
}, { output: AddOperatorOutput });
