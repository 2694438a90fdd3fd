import * as v from 'valibot';
import type { OperationContract } from '../../shared/contracts/operation.ts';
import {
  dateTimeParameter,
  decimalTextParameter,
  integerField,
  optionalText,
  positiveDecimal,
  requiredInteger,
} from '../../shared/contracts/primitives.ts';
import { SLIP_TYPE_INVALID } from '../../shared/domain/expense-slip.ts';

/** Shapes in spec order; whether the vehicle is linked and the type is the user's is the store's lookup, after these. */
const AddExpenseSlipInput = v.object({
  vehicle_uid: requiredInteger('vehicle_uid'),
  type: requiredInteger('type', SLIP_TYPE_INVALID),
  amount: positiveDecimal('amount', 2, 'amount is required and must be greater than 0'),
  event_datetime: dateTimeParameter('event_datetime is required (yyyy-mm-dd hh:mm:ss or yyyy-mm-dd)'),
  qty: v.optional(decimalTextParameter('qty', 3, 'qty must be a number of 0 or more'), '0'),
  slip_number: optionalText('slip_number', 100),
  comment: optionalText('comment', 1000),
});

const AddExpenseSlipOutput = v.object({ slip_uid: integerField });

export const contract = { input: AddExpenseSlipInput, output: AddExpenseSlipOutput } satisfies OperationContract;
