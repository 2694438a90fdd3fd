import * as v from 'valibot';
import { OperatorRecord, toOperatorRecord } from '../../shared/domain/operator.ts';
import { NotFound } from '../../shared/errors.ts';
import { operation } from '../../shared/operation.ts';
import { findOperator } from '../../shared/store/operators.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const GetOperatorInput = v.object({ operator_uid: requiredInteger('operator_uid') });

export const GetOperatorOutput = v.object({ operator: OperatorRecord });

export const handler = operation('getOperator', GetOperatorInput, async ({ user, input }) => {
  const found = await findOperator(user.userUid, input.operator_uid);
  if (!found) throw NotFound.notLinked('operator');
  return { operator: toOperatorRecord(found) };
}, { output: GetOperatorOutput });
