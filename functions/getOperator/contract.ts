import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { OperatorRecord } from '../../shared/contracts/operators.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

const GetOperatorInput = v.object({ operator_uid: requiredInteger('operator_uid') });

const GetOperatorOutput = v.object({ operator: OperatorRecord });

export const contract = { input: GetOperatorInput, output: GetOperatorOutput } satisfies OperationContract;
