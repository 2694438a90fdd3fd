import * as v from 'valibot';
import { OperatorRecord, toOperatorRecord } from '../../shared/contracts/operators.ts';
import { operation } from '../../shared/operation.ts';
import { integerField } from '../../shared/contracts/primitives.ts';
import { listOperators } from '../../shared/store/operators.ts';

export const GetOperatorsInput = v.object({});

export const GetOperatorsOutput = v.object({ cnt: integerField, operators: v.array(OperatorRecord) });

export const handler = operation('getOperators', GetOperatorsInput, async ({ user }) => {
  const operators = await listOperators(user.userUid);
  return { cnt: operators.length, operators: operators.map(toOperatorRecord) };
}, { output: GetOperatorsOutput });
