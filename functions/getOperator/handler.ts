import { toOperatorRecord } from '../../shared/contracts/operators.ts';
import { operation } from '../../shared/operation.ts';
import { getOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input }) => {
  return { operator: toOperatorRecord(await getOperator(user.userUid, input.operator_uid)) };
});
