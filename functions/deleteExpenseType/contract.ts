import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const DeleteExpenseTypeInput = v.object({ type: requiredInteger('type') });

const DeleteExpenseTypeOutput = v.object({ type: integerField });

export const contract = { input: DeleteExpenseTypeInput, output: DeleteExpenseTypeOutput } satisfies OperationContract;
