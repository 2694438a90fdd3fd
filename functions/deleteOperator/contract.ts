import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const DeleteOperatorInput = v.object({ operator_uid: requiredInteger('operator_uid') });

const DeleteOperatorOutput = v.object({ operator_uid: integerField });

export const contract = { input: DeleteOperatorInput, output: DeleteOperatorOutput } satisfies OperationContract;
