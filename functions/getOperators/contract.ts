import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { OperatorRecord } from '../../shared/contracts/operators.ts';
import { integerField } from '../../shared/contracts/primitives.ts';

const GetOperatorsInput = v.object({});

const GetOperatorsOutput = v.object({ cnt: integerField, operators: v.array(OperatorRecord) });

export const contract = { input: GetOperatorsInput, output: GetOperatorsOutput } satisfies OperationContract;
