import { operatorChanges } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { editOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  const { operator_uid, ...params } = input;
  await editOperator(user.userUid, operator_uid, operatorChanges(params));
  return { operator_uid };
});
