import { newOperatorFields, operatorChanges } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { addOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const fields = newOperatorFields({ ...operatorChanges(input), fullname: input.fullname, idNumber: input.id_number, tagId: input.tag_id });
  const created = await addOperator(user.userUid, fields);
  return { operator_uid: created.operatorUid };
});
