import { operation } from '../../shared/operation.ts';
import { deleteOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  await deleteOperator(user.userUid, input.operator_uid);
  return { operator_uid: input.operator_uid };
});
