import * as v from 'valibot';
import { SlipRecord } from '../../shared/contracts/expense-slips.ts';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

const GetExpenseSlipInput = v.object({ slip_uid: requiredInteger('slip_uid') });

const GetExpenseSlipOutput = v.object({ slip: SlipRecord });

export const contract = { input: GetExpenseSlipInput, output: GetExpenseSlipOutput } satisfies OperationContract;
