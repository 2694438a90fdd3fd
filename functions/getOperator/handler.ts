import * as v from 'valibot';
import { OperatorRecord, toOperatorRecord } from '../../shared/domain/operator.ts';
import { operation } from '../../shared/operation.ts';
import { getOperator } from '../../shared/store/operators.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const GetOperatorInput = v.object({ operator_uid: requiredInteger('operator_uid') });

export const GetOperatorOutput = v.object({ operator: OperatorRecord });

export const handler = operation('getOperator', GetOperatorInput, async ({ user, input }) => {
  return { operator: toOperatorRecord(await getOperator(user.userUid, input.operator_uid)) };
}, { output: GetOperatorOutput });
