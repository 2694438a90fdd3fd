import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { integerField, requiredInteger } from '../../shared/contracts/primitives.ts';

const DeleteExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

const DeleteExpenseSlipOutput = v.object({ slip_uid: integerField });

export const contract = { input: DeleteExpenseSlipInput, output: DeleteExpenseSlipOutput } satisfies OperationContract;
