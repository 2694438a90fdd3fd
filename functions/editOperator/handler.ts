import { operation } from '../../shared/operation.ts';
import { editOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation('editOperator', contract, async ({ user, input }) => {
  const { operator_uid, ...changes } = input;
  await editOperator(user.userUid, operator_uid, changes);
  return { operator_uid };
});
