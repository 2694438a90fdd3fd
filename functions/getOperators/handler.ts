import { toOperatorRecord } from '../../shared/contracts/operators.ts';
import { operation } from '../../shared/operation.ts';
import { listOperators } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user }) => {
  const operators = await listOperators(user.userUid);
  return { cnt: operators.length, operators: operators.map(toOperatorRecord) };
});
