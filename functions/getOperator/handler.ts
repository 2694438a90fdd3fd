import { toOperatorRecord } from '../../shared/contracts/operators.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { findOperator } from '../../shared/store/operators.ts';
import { contract } from './contract.ts';

export const handler = operation('getOperator', contract, async ({ user, input }) => {
  const found = await findOperator(user.userUid, input.operator_uid);
  if (!found) throw new NotFound('operator not found or not linked to this api key');
  return { operator: toOperatorRecord(found) };
});
