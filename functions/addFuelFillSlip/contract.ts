import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import { decimalTextParameter, integerField, optionalText, positiveDecimal, requiredInteger } from '../../shared/contracts/primitives.ts';

const AddFuelFillSlipInput = v.object({
  event_uid: requiredInteger('event_uid'),
  qty: positiveDecimal('qty', 3, 'qty is required and must be greater than 0'),
  amount: v.optional(decimalTextParameter('amount', 2, 'amount must be a number of 0 or more'), '0'),
  slip_number: optionalText('slip_number', 100),
});

const AddFuelFillSlipOutput = v.object({ slip_uid: integerField, event_uid: integerField });

export const contract = { input: AddFuelFillSlipInput, output: AddFuelFillSlipOutput } satisfies OperationContract;
