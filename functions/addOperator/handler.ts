import { newOperatorFields } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { addOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation('addOperator', contract, async ({ user, input }) => {
  const created = await addOperator(user.userUid, newOperatorFields(input));
  return { operator_uid: created.operator_uid };
});
